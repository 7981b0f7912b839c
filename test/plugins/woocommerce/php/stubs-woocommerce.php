<?php
/**
 * Minimal stand-ins for the WooCommerce functions and classes the plugin uses (loaded after
 * stubs.php, only when the scenario has WooCommerce active). Notices, order meta, order notes and
 * logs are recorded for the test.
 */

function get_woocommerce_currency() {
	return isset( $GLOBALS['harness_currency'] ) ? $GLOBALS['harness_currency'] : 'AMD';
}

function wc_add_notice( $message, $type = 'success' ) {
	$GLOBALS['harness']['notices'][] = array(
		'type'    => $type,
		'message' => $message,
	);
}

// Logging.

class Harness_Logger {
	public function log( $level, $message, $context = array() ) {
		$GLOBALS['harness']['logs'][] = array(
			'level'   => $level,
			'message' => $message,
			'source'  => isset( $context['source'] ) ? $context['source'] : '',
		);
	}
}

function wc_get_logger() {
	return new Harness_Logger();
}

// WooCommerce.

class WC_Settings_API {
	public $plugin_id   = 'woocommerce_';
	public $id          = '';
	public $errors      = array();
	public $settings    = array();
	public $form_fields = array();

	public function get_option_key() {
		return $this->plugin_id . $this->id . '_settings';
	}

	public function get_form_fields() {
		return $this->form_fields;
	}

	public function init_settings() {
		$saved          = get_option( $this->get_option_key(), null );
		$this->settings = is_array( $saved ) ? $saved : array();
		foreach ( $this->form_fields as $key => $field ) {
			if ( ! isset( $this->settings[ $key ] ) ) {
				$this->settings[ $key ] = isset( $field['default'] ) ? $field['default'] : '';
			}
		}
		$this->enabled = ! empty( $this->settings['enabled'] ) && 'yes' === $this->settings['enabled'] ? 'yes' : 'no';
	}

	public function get_option( $key, $empty_value = null ) {
		if ( ! isset( $this->settings[ $key ] ) ) {
			$this->settings[ $key ] = isset( $this->form_fields[ $key ]['default'] ) ? $this->form_fields[ $key ]['default'] : '';
		}
		if ( null !== $empty_value && '' === $this->settings[ $key ] ) {
			$this->settings[ $key ] = $empty_value;
		}
		return $this->settings[ $key ];
	}

	/** Saves the posted fields as WooCommerce does: checkboxes yes/no, `validate_{key}_field` when defined. */
	public function process_admin_options() {
		$post = isset( $GLOBALS['harness_post'] ) ? $GLOBALS['harness_post'] : array();
		foreach ( $this->form_fields as $key => $field ) {
			$name  = $this->plugin_id . $this->id . '_' . $key;
			$value = isset( $post[ $name ] ) ? $post[ $name ] : null;
			if ( 'checkbox' === $field['type'] ) {
				$this->settings[ $key ] = null === $value ? 'no' : 'yes';
			} elseif ( method_exists( $this, 'validate_' . $key . '_field' ) ) {
				$this->settings[ $key ] = $this->{'validate_' . $key . '_field'}( $key, $value );
			} else {
				$this->settings[ $key ] = trim( stripslashes( (string) $value ) );
			}
		}
		return update_option( $this->get_option_key(), $this->settings );
	}

	public function add_error( $error ) {
		$this->errors[] = $error;
	}

	/** The form itself is WooCommerce's; the harness prints a placeholder (never the field values). */
	public function admin_options() {
		echo '<table class="form-table"><!-- settings fields --></table>';
	}
}

class WC_Payment_Gateway extends WC_Settings_API {
	public $enabled            = 'no';
	public $title              = '';
	public $description        = '';
	public $method_title       = '';
	public $method_description = '';
	public $has_fields         = false;
	public $supports           = array( 'products' );

	public function get_description() {
		return apply_filters( 'woocommerce_gateway_description', $this->description, $this->id );
	}

	public function is_available() {
		return 'yes' === $this->enabled;
	}

	public function supports( $feature ) {
		return in_array( $feature, $this->supports, true );
	}

	public function get_return_url( $order = null ) {
		return $order ? $order->get_checkout_order_received_url() : 'http://shop.test/checkout/order-received/';
	}
}

class WC_Order_Refund {
	private $id;

	public function __construct( $id ) {
		$this->id = $id;
	}

	public function get_id() {
		return $this->id;
	}
}

class WC_Order {
	public $meta       = array();
	public $saved_meta = array();
	public $saves      = 0;
	public $notes      = array();
	public $refunds    = array();
	private $id;
	private $key;
	private $currency;

	public function __construct( $id, $key, $currency = 'AMD' ) {
		$this->id       = $id;
		$this->key      = $key;
		$this->currency = $currency;
	}

	public function get_id() {
		return $this->id;
	}

	public function get_order_key() {
		return $this->key;
	}

	public function get_currency() {
		return $this->currency;
	}

	public function get_refunds() {
		return $this->refunds;
	}

	public function update_meta_data( $key, $value ) {
		$this->meta[ $key ] = $value;
	}

	public function get_meta( $key, $single = true ) {
		return isset( $this->saved_meta[ $key ] ) ? $this->saved_meta[ $key ] : '';
	}

	public function save() {
		$this->saved_meta = $this->meta;
		++$this->saves;
		return $this->id;
	}

	public function add_order_note( $note ) {
		$this->notes[] = $note;
		return count( $this->notes );
	}

	public function get_checkout_order_received_url() {
		return 'http://shop.test/checkout/order-received/' . $this->id . '/?key=' . $this->key;
	}

	public function get_checkout_payment_url() {
		return 'http://shop.test/checkout/order-pay/' . $this->id . '/?pay_for_order=true&key=' . $this->key;
	}

	public function get_cancel_order_url_raw() {
		return 'http://shop.test/cart/?cancel_order=true&order=' . $this->key . '&order_id=' . $this->id . '&_wpnonce=nonce';
	}
}

function wc_get_order( $order_id ) {
	return isset( $GLOBALS['harness_orders'][ (int) $order_id ] ) ? $GLOBALS['harness_orders'][ (int) $order_id ] : false;
}

class Harness_Payment_Gateways {
	public $gateways = array();

	public function payment_gateways() {
		return $this->gateways;
	}
}

class Harness_WooCommerce {
	public $gateways;

	public function __construct() {
		$this->gateways = new Harness_Payment_Gateways();
	}

	public function api_request_url( $request ) {
		return 'http://shop.test/?wc-api=' . $request;
	}

	public function payment_gateways() {
		return $this->gateways;
	}
}

function WC() {
	static $instance = null;
	if ( null === $instance ) {
		$instance = new Harness_WooCommerce();
	}
	return $instance;
}

class Harness_Payment_Method_Registry {
	public $registered = array();

	public function register( $integration ) {
		$this->registered[] = $integration;
	}
}
