<?php
/**
 * The WooCommerce payment gateway: its settings, and the buyer sent to the hosted checkout through
 * the connector. What follows is in classes of its own: the settings form's fields
 * (class-armenian-gateway-settings-fields.php), what a payment is started with and where the buyer
 * may be sent (class-armenian-gateway-checkout.php), the buyer's return
 * (class-armenian-gateway-return.php), refunds and cancels (class-armenian-gateway-refunds.php), the
 * connection on the settings page (class-armenian-gateway-connection-settings.php).
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Armenian Payment Gateway for WooCommerce.
 *
 * The plugin never marks an order paid itself: the connector does it through the WooCommerce REST API
 * once the gateway has confirmed the payment (on the gateway's webhook, or when the return handler
 * reads the payment back).
 */
class Armenian_Gateway extends WC_Payment_Gateway {

	/**
	 * The gateway id, also the Blocks payment method name.
	 */
	const GATEWAY_ID = 'armenian_gateway';

	/**
	 * The WooCommerce API endpoint of the return handler (`?wc-api=wc_armenian_gateway`).
	 */
	const RETURN_ENDPOINT = 'wc_armenian_gateway';

	/**
	 * Order meta key holding the gateway payment uuid.
	 */
	const META_PAYMENT_UUID = '_armenian_gateway_payment_uuid';

	/**
	 * Option holding the origin of the gateway's payment page (`https://host[:port]`) buyers are sent to.
	 */
	const CHECKOUT_ORIGIN_OPTION = 'armenian_gateway_checkout_origin';

	/**
	 * Seconds a call to the connector may take.
	 */
	const TIMEOUT = Armenian_Gateway_Connector::TIMEOUT;

	/**
	 * Features the gateway supports.
	 */
	const SUPPORTED_FEATURES = array( 'products', 'refunds' );

	/**
	 * Sets up the gateway and its hooks.
	 */
	public function __construct() {
		$this->id                 = self::GATEWAY_ID;
		$this->method_title       = __( 'Armenian Payment Gateway', 'armenian-payment-gateway' );
		$this->method_description = __( 'Armenian bank cards and wallets on a secure hosted payment page. Orders are marked paid by the connector once the payment is confirmed; refunds are sent from the order screen.', 'armenian-payment-gateway' );
		$this->supports           = self::SUPPORTED_FEATURES;

		$this->init_form_fields();
		$this->init_settings();

		$this->title       = $this->get_option( 'title' );
		$this->description = $this->get_option( 'description' );
		$this->has_fields  = $this->is_test_mode();

		add_action( 'woocommerce_update_options_payment_gateways_' . $this->id, array( $this, 'process_admin_options' ) );
		$return = new Armenian_Gateway_Return( $this );
		add_action( 'woocommerce_api_' . self::RETURN_ENDPOINT, array( $return, 'handle' ) );
		add_action( 'woocommerce_thankyou_' . $this->id, array( $return, 'thankyou_notice' ) );
	}

	/**
	 * The settings the shop owner fills in.
	 */
	public function init_form_fields() {
		$this->form_fields = Armenian_Gateway_Settings_Fields::fields();
	}

	/**
	 * Cleans the connect token (Armenian_Gateway_Settings_Fields::clean_connect_token).
	 *
	 * @param string $key   Field key.
	 * @param string $value Posted value.
	 * @return string
	 */
	public function validate_connect_token_field( $key, $value ) {
		return Armenian_Gateway_Settings_Fields::clean_connect_token( $value );
	}

	/**
	 * The connect token's field, never carrying the saved token.
	 *
	 * @param string $key  Field key.
	 * @param array  $data Field definition.
	 * @return string
	 */
	public function generate_connect_token_html( $key, $data ) {
		return Armenian_Gateway_Settings_Fields::connect_token_html( $this->get_field_key( $key ), $data, '' !== $this->connect_token() );
	}

	/**
	 * Keeps an http(s) connector address without its trailing slash.
	 *
	 * @param string $key   Field key.
	 * @param string $value Posted value.
	 * @return string
	 */
	public function validate_connector_url_field( $key, $value ) {
		return Armenian_Gateway_Settings_Fields::clean_connector_url( $this, $value );
	}

	/**
	 * Saves the settings, then registers this store with the connector so the shop owner can approve
	 * the connection from the settings page.
	 *
	 * @return bool Whether the settings were saved.
	 */
	public function process_admin_options() {
		// Saving (and showing the page after it) waits for the connector at most this long in all.
		Armenian_Gateway_Connector::limit_to( Armenian_Gateway_Connector::ACTION_TIMEOUT );
		$connection = new Armenian_Gateway_Connection_Settings( $this );
		$manual_key = $connection->take_posted_manual_key();
		$before     = array( $this->connect_token(), $this->connector_url() );
		$saved      = parent::process_admin_options();
		if ( array( $this->connect_token(), $this->connector_url() ) !== $before ) {
			// Another token or connector may pay through another gateway: the next checkout learns its payment page.
			delete_option( self::CHECKOUT_ORIGIN_OPTION );
		}
		Armenian_Gateway_Health::forget();
		Armenian_Gateway_Health::unblock_payments();
		$connection->connect_store();
		if ( null !== $manual_key ) {
			$connection->send_manual_key( $manual_key );
		}
		return $saved;
	}

	/**
	 * The settings page: the connection's state above the settings form.
	 */
	public function admin_options() {
		( new Armenian_Gateway_Connection_Settings( $this ) )->render_status();
		parent::admin_options();
	}

	/**
	 * The description at checkout, with a notice while test mode is on.
	 */
	public function payment_fields() {
		$description = $this->get_description();
		if ( '' !== (string) $description ) {
			echo wp_kses_post( wpautop( wptexturize( $description ) ) );
		}
		if ( $this->is_test_mode() ) {
			echo '<p class="armenian-gateway-test-mode">' . esc_html__( 'Test mode: this is a test payment, no real money is taken.', 'armenian-payment-gateway' ) . '</p>';
		}
	}

	/**
	 * Offered at checkout only when it is set up (a connector URL this site may call) and the store
	 * sells in AMD. Armenian_Gateway_Blocks::is_active() decides the same for the Checkout block.
	 *
	 * @return bool
	 */
	public function is_available() {
		if ( ! parent::is_available() || ! $this->is_configured() || '' !== Armenian_Gateway_Connector_Url::problem( $this->connector_url() ) ) {
			return false;
		}
		// A revoked token or a refused store key: every try would leave a pending order nobody can pay.
		if ( Armenian_Gateway_Health::payments_blocked() ) {
			return false;
		}
		return 'AMD' === get_woocommerce_currency();
	}

	/**
	 * Starts (or resumes) the order's payment at the connector and sends the buyer to the hosted checkout.
	 *
	 * @param int $order_id The order id.
	 * @return array
	 */
	public function process_payment( $order_id ) {
		$order = wc_get_order( $order_id );
		if ( ! $order ) {
			wc_add_notice( __( 'We could not find your order. Please try again.', 'armenian-payment-gateway' ), 'error' );
			return array( 'result' => 'failure' );
		}

		$request = array(
			'return_url' => Armenian_Gateway_Return::url( $order ),
			'cancel_url' => $order->get_cancel_order_url_raw(),
			'order'      => Armenian_Gateway_Checkout::order_snapshot( $order ),
		);
		if ( $this->captures_later() ) {
			$request['capture_method'] = 'manual';
		}
		$result = $this->call_connector( 'POST', self::order_path( $order ) . '/payment', $request );

		if ( $result->is_error( 'order_already_paid' ) ) {
			return array(
				'result'   => 'success',
				'redirect' => $this->get_return_url( $order ),
			);
		}

		$checkout_url = $result->is_ok() ? $result->field( 'checkout_url' ) : '';
		if ( $result->is_ok() && ! Armenian_Gateway_Checkout::checkout_url_allowed( $checkout_url ) ) {
			$result = Armenian_Gateway_Response::failure( $result->status, Armenian_Gateway_Response::INVALID_RESPONSE, 'The connector answered a checkout_url that is not the gateway\'s https payment page: ' . $checkout_url );
		}
		if ( ! $result->is_ok() ) {
			$this->log( 'error', sprintf( 'Starting the payment of order %d failed', $order->get_id() ), $result );
			if ( $result->is_error( 'store_unauthorized' ) ) {
				// The shop owner hears of it on the next admin page, and no other buyer is offered the method.
				Armenian_Gateway_Health::block_payments( 'store_unauthorized' );
			} elseif ( $result->is_error( 'invalid_connect_token' ) ) {
				Armenian_Gateway_Health::block_payments( 'token_revoked' );
			}
			wc_add_notice( Armenian_Gateway_Checkout::buyer_payment_error( $result ), 'error' );
			return array( 'result' => 'failure' );
		}

		$payment_uuid = $result->field( 'payment_uuid' );
		if ( 1 === preg_match( '/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/', $payment_uuid ) ) {
			$order->update_meta_data( self::META_PAYMENT_UUID, $payment_uuid );
			if ( $this->captures_later() ) {
				$order->update_meta_data( Armenian_Gateway_Holds::META_CAPTURE_LATER, 'yes' );
			}
			// WooCommerce's own field for the gateway's payment id (shown on the order, searchable).
			$order->set_transaction_id( $payment_uuid );
			$order->save();
		}

		return array(
			'result'   => 'success',
			'redirect' => $checkout_url,
		);
	}

	/**
	 * Refunds at the gateway, from the order screen (Armenian_Gateway_Refunds). The amount is whole AMD.
	 *
	 * @param int        $order_id The order id.
	 * @param float|null $amount   The amount to refund.
	 * @param string     $reason   The reason the shop owner gave.
	 * @return bool|WP_Error
	 */
	public function process_refund( $order_id, $amount = null, $reason = '' ) {
		return Armenian_Gateway_Refunds::refund( $this->connector(), $order_id, $amount, $reason );
	}

	/**
	 * The connector's path of an order.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	public static function order_path( $order ) {
		return '/v1/orders/' . rawurlencode( (string) $order->get_id() );
	}

	/**
	 * True when "Authorize only, capture later" is on: payments hold the buyer's card.
	 *
	 * @return bool
	 */
	public function captures_later() {
		return 'yes' === $this->get_option( 'capture_later', 'no' );
	}

	/**
	 * True when test mode is on.
	 *
	 * @return bool
	 */
	public function is_test_mode() {
		return 'yes' === $this->get_option( 'test_mode', 'yes' );
	}

	/**
	 * True when the connect token and the connector URL are set.
	 *
	 * @return bool
	 */
	public function is_configured() {
		return '' !== $this->connect_token() && '' !== $this->connector_url();
	}

	/**
	 * The connect token.
	 *
	 * @return string
	 */
	private function connect_token() {
		return Armenian_Gateway_Connector::saved_token();
	}

	/**
	 * The connector's base URL, without a trailing slash.
	 *
	 * @return string
	 */
	private function connector_url() {
		return untrailingslashit( trim( (string) $this->get_option( 'connector_url', '' ) ) );
	}

	/**
	 * Calls the connector (Armenian_Gateway_Connector) with this gateway's token and URL.
	 *
	 * @param string     $method  GET, POST or DELETE.
	 * @param string     $path    Path from the connector's root, starting with a slash.
	 * @param array|null $body    JSON body, or null for none.
	 * @param int        $timeout Seconds the call may take.
	 * @return Armenian_Gateway_Response
	 */
	private function call_connector( $method, $path, $body = null, $timeout = self::TIMEOUT ) {
		return $this->connector()->request( $method, $path, $body, $timeout );
	}

	/**
	 * The connector client with this gateway's token and URL.
	 *
	 * @return Armenian_Gateway_Connector
	 */
	public function connector() {
		return new Armenian_Gateway_Connector( $this->connect_token(), $this->connector_url() );
	}

	/**
	 * Writes to the WooCommerce log (source `armenian-gateway`), never the connect token.
	 *
	 * @param string                         $level   warning or error.
	 * @param string                         $message What failed.
	 * @param Armenian_Gateway_Response|null $result  The connector's answer.
	 */
	private function log( $level, $message, $result ) {
		Armenian_Gateway_Connector::log( $level, $message, $result );
	}
}
