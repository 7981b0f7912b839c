<?php
/**
 * The payment method in the Cart and Checkout blocks.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

use Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType;

/**
 * Gives the Checkout block the payment method's script and settings. The payment itself goes through
 * `Armenian_Gateway::process_payment`, as in the classic checkout.
 */
final class Armenian_Gateway_Blocks extends AbstractPaymentMethodType {

	/**
	 * The payment method name: the gateway id.
	 *
	 * @var string
	 */
	protected $name = 'armenian_gateway';

	/**
	 * The script handle.
	 */
	const SCRIPT_HANDLE = 'armenian-gateway-blocks';

	/**
	 * Reads the gateway's settings.
	 */
	public function initialize() {
		$settings       = get_option( 'woocommerce_armenian_gateway_settings', array() );
		$this->settings = is_array( $settings ) ? $settings : array();
	}

	/**
	 * True when the method can take payments, as the classic checkout decides
	 * (Armenian_Gateway::is_available): enabled, the connect token and a usable connector URL
	 * set, and the store selling in AMD. WooCommerce enqueues nothing of an inactive method.
	 *
	 * @return bool
	 */
	public function is_active() {
		if ( 'yes' !== $this->get_setting( 'enabled', 'no' ) ) {
			return false;
		}
		$connector = Armenian_Gateway_Connector::from_settings();
		if ( ! $connector->is_configured() || '' !== Armenian_Gateway_Connector_Url::problem( (string) $this->get_setting( 'connector_url', '' ) ) ) {
			return false;
		}
		return function_exists( 'get_woocommerce_currency' ) && 'AMD' === get_woocommerce_currency();
	}

	/**
	 * Registers the Blocks script.
	 *
	 * @return string[]
	 */
	public function get_payment_method_script_handles() {
		wp_register_script(
			self::SCRIPT_HANDLE,
			plugins_url( 'assets/js/blocks.js', ARMENIAN_GATEWAY_FILE ),
			array( 'wc-blocks-registry', 'wc-settings', 'wp-element', 'wp-html-entities', 'wp-i18n' ),
			ARMENIAN_GATEWAY_VERSION,
			true
		);
		if ( function_exists( 'wp_set_script_translations' ) ) {
			wp_set_script_translations( self::SCRIPT_HANDLE, 'armenian-payment-gateway' );
		}
		return array( self::SCRIPT_HANDLE );
	}

	/**
	 * What the script reads with `getSetting( 'armenian_gateway_data' )`.
	 *
	 * @return array
	 */
	public function get_payment_method_data() {
		return array(
			'title'          => $this->get_setting( 'title', __( 'Bank card or wallet', 'armenian-payment-gateway' ) ),
			'description'    => $this->get_setting( 'description', __( 'Pay with an Armenian bank card or wallet on a secure payment page.', 'armenian-payment-gateway' ) ),
			'testMode'       => 'no' !== $this->get_setting( 'test_mode', 'yes' ),
			'testModeNotice' => __( 'Test mode: this is a test payment, no real money is taken.', 'armenian-payment-gateway' ),
			'supports'       => $this->supported_features(),
			'currency'       => 'AMD',
		);
	}

	/**
	 * The gateway's features, as WooCommerce reports them.
	 *
	 * @return string[]
	 */
	private function supported_features() {
		$gateways = function_exists( 'WC' ) && WC()->payment_gateways() ? WC()->payment_gateways()->payment_gateways() : array();
		if ( isset( $gateways[ $this->name ] ) ) {
			$gateway = $gateways[ $this->name ];
			return array_values( array_filter( $gateway->supports, array( $gateway, 'supports' ) ) );
		}
		return Armenian_Gateway::SUPPORTED_FEATURES;
	}
}
