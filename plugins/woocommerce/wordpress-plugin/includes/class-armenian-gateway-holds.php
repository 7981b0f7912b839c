<?php
/**
 * "Authorize only, capture later": the buyer's card is only held when the order is placed, and the
 * money is taken when the shop owner sets the order Processing or Completed, or presses Capture in
 * the order panel (for a smaller amount). The connector captures once and marks the order paid.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Captures of card holds, asked of the connector (`POST /v1/orders/{id}/capture`). The connector
 * sends one capture per hold, whatever the number of requests: a second request answers the same
 * capture, and a capture whose outcome is unknown is settled by the connector itself.
 */
final class Armenian_Gateway_Holds {

	/**
	 * Order meta: the order's payment was created to be captured later (`yes`).
	 */
	const META_CAPTURE_LATER = '_armenian_gateway_capture_later';

	/**
	 * Order meta: what was captured, whole AMD, once the connector said so.
	 */
	const META_CAPTURED = '_armenian_gateway_captured';

	/**
	 * The admin-post action of the panel's Capture button.
	 */
	const CAPTURE_ACTION = 'armenian_gateway_capture';

	/**
	 * The posted field of the amount to capture.
	 */
	const AMOUNT_FIELD = 'armenian_gateway_capture_amount';

	/**
	 * Seconds a capture may take (the connector waits for the processor).
	 */
	const CAPTURE_TIMEOUT = 20;

	/**
	 * Hooks the status changes that capture and the panel's action.
	 */
	public static function register() {
		add_action( 'woocommerce_order_status_processing', array( __CLASS__, 'capture_on_status' ), 10, 1 );
		add_action( 'woocommerce_order_status_completed', array( __CLASS__, 'capture_on_status' ), 10, 1 );
		add_action( 'admin_post_' . self::CAPTURE_ACTION, array( __CLASS__, 'capture_from_panel' ) );
	}

	/**
	 * True for an order of this method whose payment was created to be captured later and that the
	 * plugin has not seen captured.
	 *
	 * @param WC_Order $order The order.
	 * @return bool
	 */
	public static function awaits_capture( $order ) {
		return Armenian_Gateway::GATEWAY_ID === $order->get_payment_method()
			&& 'yes' === $order->get_meta( self::META_CAPTURE_LATER )
			&& '' === (string) $order->get_meta( self::META_CAPTURED );
	}

	/**
	 * `woocommerce_order_status_processing` / `_completed`: the shop owner goes on with a held
	 * order, so its hold is captured whole. A refusal is noted on the order (it is not paid).
	 *
	 * @param int $order_id The order.
	 */
	public static function capture_on_status( $order_id ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || $order instanceof WC_Order_Refund || ! self::awaits_capture( $order ) ) {
			return;
		}
		$result = self::capture( $order, null );
		if ( $result->is_ok() || $result->is_error( 'no_card_hold' ) ) {
			// Captured, being settled by the connector (202), or never held (the buyer did not pay).
			return;
		}
		Armenian_Gateway_Connector::log( 'warning', sprintf( 'Capturing the card hold of order %d failed', $order->get_id() ), $result );
		$order->add_order_note(
			sprintf(
				/* translators: %s: why the capture failed. */
				__( 'The card hold could not be captured: %s The order is not paid yet: capture it from the Armenian Payment Gateway panel, or cancel the order to release the hold.', 'armenian-payment-gateway' ),
				self::sentence( Armenian_Gateway_Connector::admin_error_message( $result ) )
			)
		);
	}

	/**
	 * Asks the connector to capture the order's hold: all of it (`$amount` null) or that many AMD.
	 *
	 * @param WC_Order $order  The order.
	 * @param int|null $amount Whole AMD, or null for the whole hold.
	 * @return Armenian_Gateway_Response
	 */
	public static function capture( $order, $amount ) {
		// The whole hold: no body at all (an empty PHP array would be sent as a JSON list).
		$body   = null === $amount ? null : array( 'amount' => (int) $amount );
		$result = ( new Armenian_Gateway() )->connector()->request( 'POST', Armenian_Gateway::order_path( $order ) . '/capture', $body, self::CAPTURE_TIMEOUT );
		if ( $result->is_ok() && 'captured' === $result->field( 'capture' ) ) {
			$order->update_meta_data( self::META_CAPTURED, (string) absint( $result->field( 'captured_amount', '0' ) ) );
			$order->save();
		}
		return $result;
	}

	/**
	 * The panel's Capture button (it submits the order form to admin-post.php): captures the amount
	 * entered, then returns to the order with the outcome.
	 */
	public static function capture_from_panel() {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the nonce is checked right below, for this order.
		$order_id = isset( $_GET['order_id'] ) ? absint( wp_unslash( $_GET['order_id'] ) ) : 0;
		check_admin_referer( self::CAPTURE_ACTION . '_' . $order_id );
		if ( ! current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to capture payments.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		$order = $order_id > 0 ? wc_get_order( $order_id ) : false;
		if ( ! $order ) {
			wp_die( esc_html__( 'The order was not found.', 'armenian-payment-gateway' ), '', array( 'response' => 404 ) );
		}
		$posted = isset( $_POST[ self::AMOUNT_FIELD ] ) ? trim( sanitize_text_field( wp_unslash( $_POST[ self::AMOUNT_FIELD ] ) ) ) : '';
		if ( '' !== $posted && ! preg_match( '/^[1-9][0-9]{0,14}$/', $posted ) ) {
			$outcome = array(
				'type'    => 'error',
				'message' => __( 'Enter the amount to capture in whole Armenian dram (AMD), or leave it empty to capture the whole hold.', 'armenian-payment-gateway' ),
			);
		} else {
			$outcome = self::capture_outcome( self::capture( $order, '' === $posted ? null : (int) $posted ) );
		}
		Armenian_Gateway_Admin_Format::flash( 'check_' . $order->get_id(), $outcome );
		wp_safe_redirect( $order->get_edit_order_url() );
		exit;
	}

	/**
	 * The URL the Capture button submits to (with its nonce).
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	public static function capture_url( $order ) {
		return wp_nonce_url(
			admin_url( 'admin-post.php?action=' . self::CAPTURE_ACTION . '&order_id=' . rawurlencode( (string) $order->get_id() ) ),
			self::CAPTURE_ACTION . '_' . $order->get_id()
		);
	}

	/**
	 * A capture's outcome in words.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return array `{type, message}`.
	 */
	private static function capture_outcome( Armenian_Gateway_Response $result ) {
		if ( ! $result->is_ok() ) {
			Armenian_Gateway_Connector::log( 'warning', 'Capturing a card hold failed', $result );
			return array(
				'type'    => 'error',
				/* translators: %s: why the capture failed. */
				'message' => sprintf( __( 'The card hold was not captured: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ),
			);
		}
		$amount = Armenian_Gateway_Admin_Format::amount( $result->field( 'captured_amount', '0' ) );
		if ( 'captured' === $result->field( 'capture' ) ) {
			return array(
				'type'    => 'success',
				/* translators: %s: the amount captured. */
				'message' => sprintf( __( 'Captured %s: the order is being marked paid.', 'armenian-payment-gateway' ), $amount ),
			);
		}
		return array(
			'type'    => 'warning',
			/* translators: %s: the amount being captured. */
			'message' => sprintf( __( 'The capture of %s was sent, but the bank has not confirmed it yet. It is checked again automatically and the order is marked paid once it is: do not capture it again.', 'armenian-payment-gateway' ), $amount ),
		);
	}

	/**
	 * A message ending with a full stop, to be followed by another sentence.
	 *
	 * @param string $message The message.
	 * @return string
	 */
	private static function sentence( $message ) {
		$message = trim( (string) $message );
		return '' === $message || in_array( substr( $message, -1 ), array( '.', '!', '?' ), true ) ? $message : $message . '.';
	}
}
