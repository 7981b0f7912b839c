<?php
/**
 * Starting a payment at checkout: what the connector is sent of the order, which checkout URL the
 * buyer may be sent to, and what the buyer reads when the payment could not be started. The gateway
 * class's process_payment (class-armenian-gateway.php) uses these.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The checkout's rules for a payment of Armenian_Gateway.
 */
final class Armenian_Gateway_Checkout {

	/**
	 * True for a checkout URL the buyer may be sent to: an https URL (http only with
	 * ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR, for a development gateway) of the gateway's payment page
	 * (`/checkout/...`), on the origin of the first one this store accepted since its connect token or
	 * connector URL last changed (kept in CHECKOUT_ORIGIN_OPTION and shown on the settings page).
	 *
	 * @param string $url The connector's `checkout_url`.
	 * @return bool
	 */
	public static function checkout_url_allowed( $url ) {
		$parts = wp_parse_url( (string) $url );
		if ( ! is_array( $parts ) || empty( $parts['host'] ) || empty( $parts['scheme'] ) || isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
			return false;
		}
		$scheme = strtolower( (string) $parts['scheme'] );
		if ( 'https' !== $scheme && ! ( 'http' === $scheme && Armenian_Gateway_Connector_Url::local_allowed() ) ) {
			return false;
		}
		if ( ! isset( $parts['path'] ) || 0 !== strpos( (string) $parts['path'], '/checkout/' ) ) {
			return false;
		}
		$origin = $scheme . '://' . strtolower( (string) $parts['host'] ) . ( isset( $parts['port'] ) ? ':' . (int) $parts['port'] : '' );
		$pinned = get_option( Armenian_Gateway::CHECKOUT_ORIGIN_OPTION, '' );
		if ( ! is_string( $pinned ) || '' === $pinned ) {
			update_option( Armenian_Gateway::CHECKOUT_ORIGIN_OPTION, $origin, false );
			return true;
		}
		return $pinned === $origin;
	}

	/**
	 * What the connector needs of the order, sent with the payment so that it does not read the order
	 * back from the store while this request holds the store's PHP worker.
	 *
	 * @param WC_Order $order The order.
	 * @return array
	 */
	public static function order_snapshot( $order ) {
		$created = $order->get_date_created();
		$name    = trim( $order->get_billing_first_name() . ' ' . $order->get_billing_last_name() );
		$email   = (string) $order->get_billing_email();
		return array(
			'number'         => (string) $order->get_order_number(),
			'total'          => number_format( (float) $order->get_total(), 2, '.', '' ),
			'currency'       => (string) $order->get_currency(),
			'status'         => (string) $order->get_status(),
			'created_at'     => $created ? gmdate( 'Y-m-d\TH:i:s\Z', $created->getTimestamp() ) : null,
			'customer_email' => '' !== $email ? $email : null,
			'customer_name'  => '' !== $name ? $name : null,
			'payment_method' => (string) $order->get_payment_method(),
		);
	}

	/**
	 * The message a buyer sees when the payment could not be started.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	public static function buyer_payment_error( Armenian_Gateway_Response $result ) {
		if ( $result->is_error( 'hold_not_supported' ) ) {
			return __( 'Card payments are not available for this order right now, and this payment method takes cards only. Please choose another payment method.', 'armenian-payment-gateway' );
		}
		if ( $result->is_error( 'unsupported_amount' ) ) {
			return __( 'This payment method accepts whole amounts in Armenian dram (AMD) only. Please choose another payment method.', 'armenian-payment-gateway' );
		}
		return __( 'We could not start the payment. Please try again in a moment, or choose another payment method.', 'armenian-payment-gateway' );
	}
}
