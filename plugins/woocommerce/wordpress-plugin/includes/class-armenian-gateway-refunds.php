<?php
/**
 * Refunds from the WooCommerce admin, sent to the connector, and the cancel of an order's payment
 * when WooCommerce cancels the order; what has no answer is sent again later (WP-Cron).
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * A refund is never made twice nor lost: WooCommerce's refund is sent under its store refund id,
 * and one whose answer did not arrive is sent again, as the same refund, until the connector
 * answers; a refund the connector refused is removed from the order with a note.
 */
final class Armenian_Gateway_Refunds {

	/**
	 * WP-Cron hook that sends a refund whose answer never arrived again.
	 */
	const RESEND_REFUND_HOOK = 'armenian_gateway_resend_refund';

	/**
	 * Attempts of a refund resend before the owner is asked to look (about a week of tries).
	 */
	const RESEND_REFUND_ATTEMPTS = 40;

	/**
	 * WP-Cron hook that asks the connector again to cancel a cancelled order's payment.
	 */
	const CANCEL_PAYMENT_HOOK = 'armenian_gateway_cancel_payment';

	/**
	 * Seconds a cancellation waits for the connector within the request that cancelled the order.
	 */
	const CANCEL_TIMEOUT = 5;

	/**
	 * Refunds at the gateway, from the order screen (Armenian_Gateway::process_refund). The amount is
	 * whole AMD.
	 *
	 * @param Armenian_Gateway_Connector $connector The connector client with the gateway's token and URL.
	 * @param int                        $order_id  The order id.
	 * @param float|null                 $amount    The amount to refund.
	 * @param string                     $reason    The reason the shop owner gave.
	 * @return bool|WP_Error
	 */
	public static function refund( Armenian_Gateway_Connector $connector, $order_id, $amount = null, $reason = '' ) {
		$order = wc_get_order( $order_id );
		if ( ! $order ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'The order was not found.', 'armenian-payment-gateway' ) );
		}
		if ( 'AMD' !== strtoupper( (string) $order->get_currency() ) ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Only orders in Armenian dram (AMD) can be refunded with this payment method.', 'armenian-payment-gateway' ) );
		}
		if ( null === $amount || '' === $amount || ! is_numeric( $amount ) || (float) $amount <= 0 ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Enter the amount to refund.', 'armenian-payment-gateway' ) );
		}
		$whole = self::whole_amd( $amount );
		if ( null === $whole ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Refunds are made in whole Armenian dram (AMD): enter an amount without a fractional part.', 'armenian-payment-gateway' ) );
		}

		$body   = array( 'amount' => $whole );
		$reason = trim( (string) $reason );
		if ( '' !== $reason ) {
			$body['reason'] = $reason;
		}
		$store_refund_id = self::newest_refund_id( $order );
		if ( null !== $store_refund_id ) {
			$body['store_refund_id'] = (string) $store_refund_id;
		}

		$result = $connector->request( 'POST', Armenian_Gateway::order_path( $order ) . '/refunds', $body );
		if ( $result->is_ok() ) {
			self::note_refund_answer( $order, $whole, $result );
			return true;
		}
		if ( null !== $store_refund_id && self::answer_unknown( $result ) ) {
			// The refund may have been made: WooCommerce keeps its refund, and the same refund is sent
			// again until the connector answers, so it is never made twice nor lost.
			Armenian_Gateway_Connector::log( 'warning', sprintf( 'Refunding order %d got no answer; it is sent again later', $order->get_id() ), $result );
			self::schedule_refund_resend( $order->get_id(), $body, 1 );
			$order->add_order_note(
				sprintf(
					/* translators: %s: amount in AMD. */
					__( 'The refund of %s AMD was sent to the Armenian Payment Gateway, but its answer did not arrive. The refund is kept on this order and sent again, as the same refund, until the gateway answers: do not refund it a second time. If the gateway refuses it, it is removed from this order with a note.', 'armenian-payment-gateway' ),
					number_format( $whole, 0, '.', '' )
				)
			);
			return true;
		}
		Armenian_Gateway_Connector::log( 'warning', sprintf( 'Refunding order %d failed', $order->get_id() ), $result );
		return new WP_Error( 'armenian_gateway_refund_failed', Armenian_Gateway_Connector::admin_error_message( $result ) );
	}

	/**
	 * WooCommerce cancelled an order paid with this method (the buyer's Cancel link, the shop owner,
	 * or an unpaid order held too long): its open payment is cancelled at the gateway, so opening its
	 * checkout again can no longer take the money. Without an answer it is asked again later
	 * (WP-Cron), each wait longer; a payment completed meanwhile is flagged by the connector for the
	 * shop owner (refund it, or reopen the order).
	 *
	 * @param int $order_id The order.
	 * @param int $attempt  This attempt's number (1 when WooCommerce cancels it).
	 */
	public static function cancel_order_payment( $order_id, $attempt = 1 ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || $order instanceof WC_Order_Refund || Armenian_Gateway::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$connector = ( new Armenian_Gateway() )->connector();
		$result    = $connector->request( 'POST', Armenian_Gateway::order_path( $order ) . '/cancel', null, self::CANCEL_TIMEOUT );
		if ( $result->is_ok() ) {
			return;
		}
		$attempt = is_numeric( $attempt ) ? (int) $attempt : 1;
		if ( self::answer_unknown( $result ) && $attempt < self::RESEND_REFUND_ATTEMPTS ) {
			$wait = (int) min( MINUTE_IN_SECONDS * pow( 2, $attempt - 1 ), 6 * HOUR_IN_SECONDS );
			wp_schedule_single_event( time() + $wait, self::CANCEL_PAYMENT_HOOK, array( (int) $order->get_id(), $attempt + 1 ) );
			return;
		}
		Armenian_Gateway_Connector::log( 'warning', sprintf( 'Cancelling the payment of cancelled order %d failed', $order->get_id() ), $result );
	}

	/**
	 * Notes the connector's answer to a refund on the order: refunded (201), or sent with its outcome
	 * not known yet (202: the payment processor did not answer; the connector settles it).
	 *
	 * @param WC_Order                  $order  The order.
	 * @param int                       $whole  The amount in whole AMD.
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 */
	private static function note_refund_answer( $order, $whole, Armenian_Gateway_Response $result ) {
		$amount = number_format( $whole, 0, '.', '' );
		if ( 202 === $result->status ) {
			$order->add_order_note(
				sprintf(
					/* translators: %s: amount in AMD. */
					__( 'The refund of %s AMD was sent to the Armenian Payment Gateway; the payment processor has not confirmed it yet. It is kept on this order: do not refund it a second time. If it does not go through, it is removed from this order with a note.', 'armenian-payment-gateway' ),
					$amount
				)
			);
			return;
		}
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount in AMD, 2: the gateway refund uuid. */
				__( 'Refunded %1$s AMD at the Armenian Payment Gateway (refund %2$s).', 'armenian-payment-gateway' ),
				$amount,
				$result->field( 'refund_uuid' )
			)
		);
	}

	/**
	 * Whether a failed call may still have been carried out: the connector did not answer, answered
	 * too late, failed itself (5xx) or answered something else than its JSON. A refusal it answered
	 * (4xx), or a call never sent (no settings, a refused URL), changed nothing.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return bool
	 */
	private static function answer_unknown( Armenian_Gateway_Response $result ) {
		if ( $result->status >= 500 ) {
			return true;
		}
		return in_array(
			$result->error,
			array( Armenian_Gateway_Response::TRANSPORT_ERROR, Armenian_Gateway_Connector::TIMEOUT_ERROR, Armenian_Gateway_Response::INVALID_RESPONSE ),
			true
		);
	}

	/**
	 * Sends a refund whose answer never arrived again later (WP-Cron), each wait longer: 1, 2, 4 ...
	 * minutes, at most 6 hours.
	 *
	 * @param int   $order_id The order.
	 * @param array $body     The very request sent (amount, reason, store_refund_id).
	 * @param int   $attempt  The attempt it will be.
	 */
	private static function schedule_refund_resend( $order_id, array $body, $attempt ) {
		$wait = (int) min( MINUTE_IN_SECONDS * pow( 2, $attempt - 1 ), 6 * HOUR_IN_SECONDS );
		wp_schedule_single_event( time() + $wait, self::RESEND_REFUND_HOOK, array( (int) $order_id, $body, (int) $attempt ) );
	}

	/**
	 * WP-Cron: sends a refund whose answer never arrived again, under its store refund id (the
	 * connector answers the same refund, never a second one). Refunded or pending: noted. Refused:
	 * nothing was refunded, so WooCommerce's refund is deleted and the order says why. No answer
	 * again: tried later, for at most `RESEND_REFUND_ATTEMPTS` attempts, then the owner is told.
	 *
	 * @param int   $order_id The order.
	 * @param array $body     The request (amount, reason, store_refund_id).
	 * @param int   $attempt  This attempt's number.
	 */
	public static function resend_refund( $order_id, $body, $attempt ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || ! is_array( $body ) || ! isset( $body['store_refund_id'], $body['amount'] ) ) {
			return;
		}
		$connector = ( new Armenian_Gateway() )->connector();
		$whole     = (int) $body['amount'];
		$result    = $connector->request( 'POST', Armenian_Gateway::order_path( $order ) . '/refunds', $body );
		if ( $result->is_ok() ) {
			self::note_refund_answer( $order, $whole, $result );
			return;
		}
		if ( self::answer_unknown( $result ) ) {
			if ( (int) $attempt >= self::RESEND_REFUND_ATTEMPTS ) {
				$order->add_order_note(
					sprintf(
						/* translators: %s: amount in AMD. */
						__( 'The refund of %s AMD still has no answer from the Armenian Payment Gateway after many tries. Check the connection on the payment method settings page, then look the payment up in the gateway dashboard before refunding again.', 'armenian-payment-gateway' ),
						number_format( $whole, 0, '.', '' )
					)
				);
				return;
			}
			self::schedule_refund_resend( $order->get_id(), $body, (int) $attempt + 1 );
			return;
		}
		$refund = wc_get_order( (int) $body['store_refund_id'] );
		if ( $refund instanceof WC_Order_Refund ) {
			$refund->delete( true );
		}
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount in AMD, 2: the gateway's reason. */
				__( 'The Armenian Payment Gateway refused the refund of %1$s AMD: %2$s Nothing was refunded, and the refund was removed from this order.', 'armenian-payment-gateway' ),
				number_format( $whole, 0, '.', '' ),
				Armenian_Gateway_Connector::admin_error_message( $result )
			)
		);
	}

	/**
	 * The amount in whole AMD, or null when it has a fractional part.
	 *
	 * @param string|float|int $amount A positive decimal amount.
	 * @return int|null
	 */
	private static function whole_amd( $amount ) {
		$hundredths = round( (float) $amount * 100 );
		if ( 0.0 !== fmod( $hundredths, 100.0 ) ) {
			return null;
		}
		return (int) ( $hundredths / 100 );
	}

	/**
	 * The id of the order's newest refund: WooCommerce creates the refund before it asks the gateway,
	 * so this is the refund being processed.
	 *
	 * @param WC_Order $order The order.
	 * @return int|null
	 */
	private static function newest_refund_id( $order ) {
		$newest = null;
		foreach ( $order->get_refunds() as $refund ) {
			$id = (int) $refund->get_id();
			if ( $id > 0 && ( null === $newest || $id > $newest ) ) {
				$newest = $id;
			}
		}
		return $newest;
	}
}
