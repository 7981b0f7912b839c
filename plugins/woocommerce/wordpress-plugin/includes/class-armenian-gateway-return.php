<?php
/**
 * The buyer's way back from the hosted checkout (`?wc-api=wc_armenian_gateway`) and the order
 * received page's word while the payment is not confirmed yet.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The return handler: reads the payment back from the connector and sends the buyer on. The plugin
 * never marks an order paid itself: the connector does.
 */
final class Armenian_Gateway_Return {

	/**
	 * The gateway whose settings the connector calls are made with.
	 *
	 * @var Armenian_Gateway
	 */
	private $gateway;

	/**
	 * A return handler of the gateway.
	 *
	 * @param Armenian_Gateway $gateway The gateway.
	 */
	public function __construct( Armenian_Gateway $gateway ) {
		$this->gateway = $gateway;
	}

	/**
	 * The URL the buyer comes back to from the hosted checkout. Its parameters have names of the
	 * plugin's own: the gateway adds `payment_uuid` and `order_id` (its order id) to return URLs
	 * that do not carry them already.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	public static function url( $order ) {
		return add_query_arg(
			array(
				'apg_order' => $order->get_id(),
				'apg_key'   => $order->get_order_key(),
			),
			WC()->api_request_url( Armenian_Gateway::RETURN_ENDPOINT )
		);
	}

	/**
	 * The buyer is back from the hosted checkout: reads the payment and sends the buyer to the
	 * thank-you page, or back to the payment page to try again after a decline or an expiry.
	 */
	public function handle() {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the order key authenticates the buyer's return.
		// The plugin's own names (apg_order, apg_key) cannot meet a parameter the gateway adds; order_id
		// and key are read only from return links made before the plugin used its own names.
		$order_param = isset( $_GET['apg_order'] ) ? 'apg_order' : 'order_id';
		$key_param   = isset( $_GET['apg_key'] ) ? 'apg_key' : 'key';
		$order_id    = isset( $_GET[ $order_param ] ) ? absint( wp_unslash( $_GET[ $order_param ] ) ) : 0;
		$key         = isset( $_GET[ $key_param ] ) ? sanitize_text_field( wp_unslash( $_GET[ $key_param ] ) ) : '';
		// phpcs:enable

		$order = $order_id > 0 ? wc_get_order( $order_id ) : false;
		if ( ! $order || '' === $key || ! hash_equals( (string) $order->get_order_key(), $key ) ) {
			wp_die(
				esc_html__( 'This payment link is not valid.', 'armenian-payment-gateway' ),
				esc_html__( 'Payment', 'armenian-payment-gateway' ),
				array( 'response' => 400 )
			);
			return;
		}

		wp_safe_redirect( $this->destination( $order ) );
		exit;
	}

	/**
	 * `woocommerce_thankyou_armenian_gateway`: on the order received page, while the order is not paid
	 * yet, says so. The hook prints in classic themes (checkout/thankyou.php) and in block themes alike:
	 * WooCommerce's Order Confirmation "Additional Information" block renders
	 * `woocommerce_thankyou_{payment method}` for a visitor allowed to see the order; a notice queued
	 * with `wc_add_notice` is never shown there.
	 *
	 * @param int $order_id The order.
	 */
	public function thankyou_notice( $order_id ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || $order instanceof WC_Order_Refund || $order->has_status( array( 'processing', 'completed', 'refunded' ) ) ) {
			return;
		}
		echo '<div class="woocommerce-info" role="status">' . esc_html__( 'We could not confirm your payment yet. If it went through, your order will be updated shortly and you will receive a confirmation.', 'armenian-payment-gateway' ) . '</div>';
	}

	/**
	 * Where the returning buyer goes, from the payment's state at the gateway.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private function destination( $order ) {
		$result = $this->gateway->connector()->request( 'GET', Armenian_Gateway::order_path( $order ) . '/payment' );
		if ( ! $result->is_ok() ) {
			// The order received page says the payment is not confirmed yet (thankyou_notice).
			Armenian_Gateway_Connector::log( 'warning', sprintf( 'Reading the payment of order %d failed', $order->get_id() ), $result );
			return $this->gateway->get_return_url( $order );
		}
		if ( ! empty( $result->body['paid'] ) ) {
			return $this->gateway->get_return_url( $order );
		}

		$status = $result->field( 'status' );
		switch ( $status ) {
			case 'completed':
			case 'refunded':
			case 'pending':
			case 'processing':
				return $this->gateway->get_return_url( $order );
			case 'failed':
				wc_add_notice( __( 'The payment was declined. Please try again, or use another card or payment method.', 'armenian-payment-gateway' ), 'error' );
				return $order->get_checkout_payment_url();
			case 'expired':
				wc_add_notice( __( 'The payment expired before it was completed. Please try again.', 'armenian-payment-gateway' ), 'error' );
				return $order->get_checkout_payment_url();
			default:
				Armenian_Gateway_Connector::log( 'warning', sprintf( 'The payment of order %1$d has an unknown status "%2$s"', $order->get_id(), $status ), null );
				return $this->gateway->get_return_url( $order );
		}
	}
}
