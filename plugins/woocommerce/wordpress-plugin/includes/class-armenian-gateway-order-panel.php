<?php
/**
 * The gateway payment panel on the order edit page, with its "Check now" button (and, for a card
 * hold, its state and Capture button: class-armenian-gateway-hold-panel.php).
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * A meta box on the order edit page (HPOS and posts storage), for orders paid with this method:
 * the payment as the connector reads it back from the gateway (`GET /v1/orders/{id}/payment`).
 * "Check now" reads it again and tells whether that repaired the order.
 */
final class Armenian_Gateway_Order_Panel {

	/**
	 * The meta box id.
	 */
	const BOX_ID = 'armenian-gateway-payment';

	/**
	 * The admin-post action of "Check now".
	 */
	const CHECK_ACTION = 'armenian_gateway_check_payment';

	/**
	 * Hooks the meta box and the action.
	 */
	public static function register() {
		add_action( 'add_meta_boxes', array( __CLASS__, 'add' ), 10, 2 );
		add_action( 'admin_post_' . self::CHECK_ACTION, array( __CLASS__, 'check_now' ) );
	}

	/**
	 * The order edit screens: HPOS (`woocommerce_page_wc-orders`) and posts storage (`shop_order`).
	 *
	 * @return string[]
	 */
	public static function screens() {
		$hpos = function_exists( 'wc_get_page_screen_id' ) ? wc_get_page_screen_id( 'shop-order' ) : 'woocommerce_page_wc-orders';
		return array_values( array_unique( array( $hpos, 'woocommerce_page_wc-orders', 'shop_order' ) ) );
	}

	/**
	 * `add_meta_boxes`: adds the panel when the order was paid with this method.
	 *
	 * @param string $screen_id     The screen (or post type).
	 * @param mixed  $post_or_order The order (HPOS) or its post.
	 */
	public static function add( $screen_id, $post_or_order = null ) {
		if ( ! in_array( $screen_id, self::screens(), true ) ) {
			return;
		}
		$order = self::order_of( $post_or_order );
		if ( ! $order || Armenian_Gateway::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		add_meta_box( self::BOX_ID, __( 'Armenian Payment Gateway', 'armenian-payment-gateway' ), array( __CLASS__, 'render' ), $screen_id, 'side', 'high' );
	}

	/**
	 * The order behind a meta box's object.
	 *
	 * @param mixed $post_or_order WC_Order, WP_Post or an id.
	 * @return WC_Order|false
	 */
	private static function order_of( $post_or_order ) {
		if ( $post_or_order instanceof WC_Order ) {
			return $post_or_order;
		}
		if ( is_object( $post_or_order ) && isset( $post_or_order->ID ) ) {
			return wc_get_order( $post_or_order->ID );
		}
		return is_numeric( $post_or_order ) ? wc_get_order( (int) $post_or_order ) : false;
	}

	/**
	 * The panel.
	 *
	 * @param mixed $post_or_order The order (HPOS) or its post.
	 */
	public static function render( $post_or_order ) {
		$order = self::order_of( $post_or_order );
		if ( ! $order ) {
			return;
		}
		echo '<div class="armenian-gateway-panel">';
		$flash = Armenian_Gateway_Admin_Format::take_flash( 'check_' . $order->get_id() );
		if ( null !== $flash ) {
			Armenian_Gateway_Admin_Format::notice( (string) $flash['type'], (string) $flash['message'], '', 'inline armenian-gateway-check-result' );
		}

		$result = Armenian_Gateway_Connector::from_settings()->page_request( 'GET', self::payment_path( $order ) );
		if ( ! $result->is_ok() ) {
			Armenian_Gateway_Admin_Format::notice( 'error', self::error_message( $result ), '', 'inline' );
		} elseif ( '' === $result->field( 'payment_uuid' ) ) {
			echo '<p>' . esc_html__( 'The gateway has no payment for this order yet.', 'armenian-payment-gateway' ) . '</p>';
		} else {
			self::render_payment( $result->body );
			Armenian_Gateway_Hold_Panel::render( $order, $result->body );
		}

		if ( current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			echo '<p><a class="button armenian-gateway-check-now" href="' . esc_url( self::check_url( $order ) ) . '">' . esc_html__( 'Check now', 'armenian-payment-gateway' ) . '</a></p>';
			echo '<p class="description">' . esc_html__( 'Reads the payment from the gateway again and marks the order paid if it was paid there.', 'armenian-payment-gateway' ) . '</p>';
		}
		echo '</div>';
	}

	/**
	 * The payment's fields.
	 *
	 * @param array $payment The connector's answer.
	 */
	private static function render_payment( array $payment ) {
		$currency = Armenian_Gateway_Response::text_of( $payment, 'currency', 'AMD' );
		$env      = Armenian_Gateway_Response::text_of( $payment, 'environment' );
		$rows     = array(
			__( 'Payment', 'armenian-payment-gateway' )         => Armenian_Gateway_Admin_Format::text( $payment['payment_uuid'] ),
			__( 'Status', 'armenian-payment-gateway' )          => Armenian_Gateway_Admin_Format::text( isset( $payment['status'] ) ? $payment['status'] : null ),
			__( 'Processor', 'armenian-payment-gateway' )       => Armenian_Gateway_Admin_Format::text( isset( $payment['processor'] ) ? $payment['processor'] : null ),
			__( 'RRN', 'armenian-payment-gateway' )             => Armenian_Gateway_Admin_Format::text( isset( $payment['rrn'] ) ? $payment['rrn'] : null ),
			__( 'Amount', 'armenian-payment-gateway' )          => Armenian_Gateway_Admin_Format::amount( isset( $payment['amount'] ) ? $payment['amount'] : null, $currency ),
			__( 'Refunded', 'armenian-payment-gateway' )        => Armenian_Gateway_Admin_Format::amount( isset( $payment['refunded_amount'] ) ? $payment['refunded_amount'] : 0, $currency ),
			__( 'Environment', 'armenian-payment-gateway' )     => 'live' === $env ? __( 'live', 'armenian-payment-gateway' ) : ( 'test' === $env ? __( 'test (no real money)', 'armenian-payment-gateway' ) : '—' ),
			__( 'Last webhook', 'armenian-payment-gateway' )    => isset( $payment['last_webhook_at'] ) && null !== $payment['last_webhook_at'] ? Armenian_Gateway_Admin_Format::datetime( $payment['last_webhook_at'] ) : __( 'none received', 'armenian-payment-gateway' ),
			__( 'Store update', 'armenian-payment-gateway' )    => Armenian_Gateway_Admin_Format::store_sync( Armenian_Gateway_Response::text_of( $payment, 'store_sync' ) ),
		);
		echo '<table class="widefat striped armenian-gateway-payment"><tbody>';
		foreach ( $rows as $label => $value ) {
			echo '<tr><th scope="row">' . esc_html( $label ) . '</th><td>' . esc_html( $value ) . '</td></tr>';
		}
		echo '</tbody></table>';

		$refunds = Armenian_Gateway_Response::objects_of( $payment, 'refunds' );
		if ( ! empty( $refunds ) ) {
			echo '<p><strong>' . esc_html__( 'Refunds', 'armenian-payment-gateway' ) . '</strong></p><ul class="armenian-gateway-refunds">';
			foreach ( $refunds as $refund ) {
				$line = sprintf(
					/* translators: 1: amount, 2: refund status, 3: date. */
					__( '%1$s, %2$s, %3$s', 'armenian-payment-gateway' ),
					Armenian_Gateway_Admin_Format::amount( isset( $refund['amount'] ) ? $refund['amount'] : null, $currency ),
					Armenian_Gateway_Admin_Format::text( isset( $refund['status'] ) ? $refund['status'] : null ),
					Armenian_Gateway_Admin_Format::datetime( isset( $refund['created_at'] ) ? $refund['created_at'] : null )
				);
				$reason = Armenian_Gateway_Response::text_of( $refund, 'reason' );
				if ( '' !== $reason ) {
					/* translators: 1: the refund's amount, status and date, 2: the reason given. */
					$line = sprintf( __( '%1$s (%2$s)', 'armenian-payment-gateway' ), $line, $reason );
				}
				echo '<li title="' . esc_attr( Armenian_Gateway_Admin_Format::text( isset( $refund['uuid'] ) ? $refund['uuid'] : null ) ) . '">' . esc_html( $line ) . '</li>';
			}
			echo '</ul>';
		}

		$flag = Armenian_Gateway_Response::text_of( $payment, 'flag' );
		if ( '' !== $flag ) {
			Armenian_Gateway_Admin_Format::notice( 'warning', Armenian_Gateway_Admin_Format::flag( $flag ), '', 'inline armenian-gateway-flag' );
		}
	}

	/**
	 * What the shop owner reads when the payment could not be read.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	private static function error_message( Armenian_Gateway_Response $result ) {
		if ( $result->is_error( Armenian_Gateway_Response::TRANSPORT_ERROR ) || $result->is_error( Armenian_Gateway_Connector::TIMEOUT_ERROR ) ) {
			return __( 'The connector did not answer in time, so the payment cannot be shown. Check the connection on the payment method settings page, then reload this page.', 'armenian-payment-gateway' );
		}
		/* translators: %s: the connector's error message. */
		return sprintf( __( 'The payment could not be read: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) );
	}

	/**
	 * The connector's path of the order's payment.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private static function payment_path( $order ) {
		return '/v1/orders/' . rawurlencode( (string) $order->get_id() ) . '/payment';
	}

	/**
	 * The "Check now" link (with its nonce).
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	public static function check_url( $order ) {
		return wp_nonce_url(
			admin_url( 'admin-post.php?action=' . self::CHECK_ACTION . '&order_id=' . rawurlencode( (string) $order->get_id() ) ),
			self::CHECK_ACTION . '_' . $order->get_id()
		);
	}

	/**
	 * "Check now": reads the payment back (the connector marks the order paid when it was paid at the
	 * gateway) and returns to the order with the outcome.
	 */
	public static function check_now() {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the nonce is checked right below, for this order.
		$order_id = isset( $_GET['order_id'] ) ? absint( wp_unslash( $_GET['order_id'] ) ) : 0;
		check_admin_referer( self::CHECK_ACTION . '_' . $order_id );
		if ( ! current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to check payments.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		$order = $order_id > 0 ? wc_get_order( $order_id ) : false;
		if ( ! $order ) {
			wp_die( esc_html__( 'The order was not found.', 'armenian-payment-gateway' ), '', array( 'response' => 404 ) );
		}

		$result = Armenian_Gateway_Connector::from_settings()->request( 'GET', self::payment_path( $order ), null, Armenian_Gateway_Connector::ACTION_TIMEOUT );
		if ( $result->is_ok() ) {
			Armenian_Gateway_Connector::forget_unreachable();
		}
		Armenian_Gateway_Admin_Format::flash( 'check_' . $order->get_id(), self::check_outcome( $result ) );
		wp_safe_redirect( $order->get_edit_order_url() );
		exit;
	}

	/**
	 * The outcome of "Check now" in words.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return array `{type, message}`.
	 */
	private static function check_outcome( Armenian_Gateway_Response $result ) {
		if ( ! $result->is_ok() ) {
			Armenian_Gateway_Connector::log( 'warning', 'Checking a payment failed', $result );
			return array(
				'type'    => 'error',
				'message' => self::error_message( $result ),
			);
		}
		if ( true === ( isset( $result->body['repaired'] ) ? $result->body['repaired'] : null ) ) {
			return array(
				'type'    => 'success',
				'message' => __( 'Repaired: the payment was completed at the gateway, and the order is being marked paid.', 'armenian-payment-gateway' ),
			);
		}
		if ( '' !== $result->field( 'flag' ) ) {
			return array(
				'type'    => 'warning',
				/* translators: %s: what is wrong and what to do. */
				'message' => sprintf( __( 'Nothing could be repaired automatically: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Admin_Format::flag( $result->field( 'flag' ) ) ),
			);
		}
		return array(
			'type'    => 'success',
			/* translators: %s: the payment status at the gateway. */
			'message' => sprintf( __( 'Nothing to repair: the order and the gateway agree (payment status: %s).', 'armenian-payment-gateway' ), Armenian_Gateway_Admin_Format::text( $result->field( 'status', __( 'no payment', 'armenian-payment-gateway' ) ) ) ),
		);
	}
}
