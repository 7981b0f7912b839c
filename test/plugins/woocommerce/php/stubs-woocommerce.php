<?php
/**
 * Minimal stand-ins for the WooCommerce functions and classes the plugin uses (loaded after
 * stubs.php, only when the scenario has WooCommerce active). Notices, order meta, order notes and
 * logs are recorded for the test.
 */

define( 'WC_VERSION', $GLOBALS['harness_versions']['tested']['woocommerce'] );

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

	public function get_field_key( $key ) {
		return $this->plugin_id . $this->id . '_' . $key;
	}

	/**
	 * The form as WooCommerce prints it: `generate_{type}_html` when the gateway has one, else
	 * WooCommerce's own input, whose value is the saved option (a `password` field included).
	 */
	public function admin_options() {
		echo '<table class="form-table">';
		foreach ( $this->form_fields as $key => $field ) {
			$method = 'generate_' . $field['type'] . '_html';
			if ( method_exists( $this, $method ) ) {
				echo $this->$method( $key, $field );
				continue;
			}
			$type  = 'checkbox' === $field['type'] ? 'checkbox' : ( 'password' === $field['type'] ? 'password' : 'text' );
			$value = 'checkbox' === $field['type'] ? 'yes' : $this->get_option( $key );
			echo '<tr><th><label for="' . esc_attr( $this->get_field_key( $key ) ) . '">' . esc_html( $field['title'] ) . '</label></th><td><input type="' . $type . '" name="' . esc_attr( $this->get_field_key( $key ) ) . '" id="' . esc_attr( $this->get_field_key( $key ) ) . '" value="' . esc_attr( $value ) . '" /></td></tr>';
		}
		echo '</table>';
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
		return $order ? $order->get_checkout_order_received_url() : home_url( '/checkout/order-received/' );
	}
}

class WC_Order_Refund {
	private $id;

	public function __construct( $id ) {
		$this->id = $id;
		$GLOBALS['harness_refunds'][ (int) $id ] = $this;
	}

	public function get_id() {
		return $this->id;
	}

	/** WC_Data::delete(): a refund is deleted for good only with `$force_delete`. */
	public function delete( $force_delete = false ) {
		if ( ! $force_delete ) {
			return false;
		}
		$GLOBALS['harness']['deleted_refunds'][] = $this->id;
		unset( $GLOBALS['harness_refunds'][ (int) $this->id ] );
		return true;
	}
}

class WC_DateTime extends DateTime {
}

class WP_Post {
	public $ID;
	public $post_type = 'shop_order';

	public function __construct( $id ) {
		$this->ID = $id;
	}
}

/**
 * An order. Beyond the id, key and currency it has what the plugin reads (number, total, status,
 * billing name and email, date, payment method) with the values of a typical checkout; `to_array`
 * and `from_array` keep it in the served harness's state file between requests.
 */
class WC_Order {
	public $meta           = array();
	public $saved_meta     = array();
	public $saves          = 0;
	public $notes          = array();
	public $refunds        = array();
	public $number         = null;
	public $total          = '1500.00';
	public $status         = 'pending';
	public $payment_method = 'armenian_gateway';
	public $billing_email  = 'ani@example.am';
	public $first_name     = 'Ani';
	public $last_name      = 'Karapetyan';
	public $date_created   = '2026-11-23T10:00:00+00:00';
	public $transaction_id = '';
	private $pending_transaction_id = null;
	private $id;
	private $key;
	private $currency;

	public function __construct( $id, $key, $currency = 'AMD' ) {
		$this->id       = $id;
		$this->key      = $key;
		$this->currency = $currency;
	}

	public static function from_array( array $data ) {
		$order = new WC_Order( (int) $data['id'], (string) $data['key'], isset( $data['currency'] ) ? $data['currency'] : 'AMD' );
		foreach ( array( 'number', 'total', 'status', 'payment_method', 'billing_email', 'first_name', 'last_name', 'date_created', 'notes', 'transaction_id' ) as $field ) {
			if ( array_key_exists( $field, $data ) ) {
				$order->$field = $data[ $field ];
			}
		}
		$order->meta       = isset( $data['meta'] ) ? (array) $data['meta'] : array();
		$order->saved_meta = $order->meta;
		return $order;
	}

	public function to_array() {
		return array(
			'id'             => $this->id,
			'key'            => $this->key,
			'currency'       => $this->currency,
			'number'         => $this->number,
			'total'          => $this->total,
			'status'         => $this->status,
			'payment_method' => $this->payment_method,
			'billing_email'  => $this->billing_email,
			'first_name'     => $this->first_name,
			'last_name'      => $this->last_name,
			'date_created'   => $this->date_created,
			'notes'          => $this->notes,
			'transaction_id' => $this->transaction_id,
			'meta'           => (object) $this->saved_meta,
		);
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

	public function get_order_number() {
		return null === $this->number ? (string) $this->id : (string) $this->number;
	}

	/** WooCommerce answers the stored total: a decimal string. */
	public function get_total( $context = 'view' ) {
		return $this->total;
	}

	public function get_status( $context = 'view' ) {
		return $this->status;
	}

	public function has_status( $status ) {
		return in_array( $this->status, (array) $status, true );
	}

	public function update_status( $new_status, $note = '' ) {
		$old_status   = $this->status;
		$this->status = $new_status;
		if ( '' !== $note ) {
			$this->notes[] = $note;
		}
		$this->save();
		// WC_Order::status_transition(): the hooks fire after the order is saved.
		if ( $old_status !== $new_status ) {
			do_action( 'woocommerce_order_status_' . $new_status, $this->id, $this );
		}
		return true;
	}

	public function get_payment_method( $context = 'view' ) {
		return $this->payment_method;
	}

	public function get_billing_email( $context = 'view' ) {
		return $this->billing_email;
	}

	public function get_billing_first_name( $context = 'view' ) {
		return $this->first_name;
	}

	public function get_billing_last_name( $context = 'view' ) {
		return $this->last_name;
	}

	public function get_date_created( $context = 'view' ) {
		return null === $this->date_created ? null : new WC_DateTime( $this->date_created );
	}

	public function set_transaction_id( $id ) {
		$this->pending_transaction_id = (string) $id;
	}

	public function get_transaction_id( $context = 'view' ) {
		return $this->transaction_id;
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
		if ( null !== $this->pending_transaction_id ) {
			$this->transaction_id         = $this->pending_transaction_id;
			$this->pending_transaction_id = null;
		}
		++$this->saves;
		return $this->id;
	}

	public function add_order_note( $note ) {
		$this->notes[] = $note;
		return count( $this->notes );
	}

	public function get_checkout_order_received_url() {
		return home_url( '/checkout/order-received/' . $this->id . '/?key=' . $this->key );
	}

	public function get_checkout_payment_url() {
		return home_url( '/checkout/order-pay/' . $this->id . '/?pay_for_order=true&key=' . $this->key );
	}

	/** As WooCommerce builds it: add_query_arg leaves the empty `redirect` without "=". */
	public function get_cancel_order_url_raw( $redirect = '' ) {
		return add_query_arg(
			array(
				'cancel_order' => 'true',
				'order'        => $this->key,
				'order_id'     => $this->id,
				'redirect'     => $redirect,
				'_wpnonce'     => wp_create_nonce( 'woocommerce-cancel_order' ),
			),
			home_url( '/cart/' )
		);
	}

	/** The order edit page of the storage in use (HPOS or posts). */
	public function get_edit_order_url() {
		return 'hpos' === harness_order_storage()
			? admin_url( 'admin.php?page=wc-orders&action=edit&id=' . $this->id )
			: admin_url( 'post.php?post=' . $this->id . '&action=edit' );
	}
}

/** WooCommerce's own screens (wc_get_screen_ids, abridged): its pages, orders and products. */
function wc_get_screen_ids() {
	return array( 'woocommerce_page_wc-settings', 'woocommerce_page_wc-orders', 'woocommerce_page_wc-reports', 'woocommerce_page_wc-status', 'shop_order', 'edit-shop_order', 'product', 'edit-product' );
}

/** hpos (the default of WooCommerce 8.2+) or posts. */
function harness_order_storage() {
	return isset( $GLOBALS['harness_storage'] ) ? $GLOBALS['harness_storage'] : 'hpos';
}

/** WooCommerce's screen ids: the order edit screen depends on the order storage. */
function wc_get_page_screen_id( $for ) {
	if ( 'shop-order' === $for ) {
		return 'hpos' === harness_order_storage() ? 'woocommerce_page_wc-orders' : 'shop_order';
	}
	return 'woocommerce_page_' . $for;
}

class WC_Admin_Settings {
	public static function add_error( $text ) {
		$GLOBALS['harness']['settings_errors'][] = $text;
	}
}

/**
 * WooCommerce's cancel handler, as WC_Form_Handler::cancel_order (WooCommerce 9.9) runs it on `wp_loaded`:
 * it reads `cancel_order`, `order` (the key), `order_id` and `_wpnonce`, and calls has_status() on
 * what wc_get_order() answered, without checking it (an order id it cannot find is a PHP fatal).
 */
function harness_wc_cancel_order() {
	if (
		isset( $_GET['cancel_order'] ) &&
		isset( $_GET['order'] ) &&
		isset( $_GET['order_id'] ) &&
		( isset( $_GET['_wpnonce'] ) && wp_verify_nonce( wp_unslash( $_GET['_wpnonce'] ), 'woocommerce-cancel_order' ) )
	) {
		$order_key        = wp_unslash( $_GET['order'] );
		$order_id         = absint( $_GET['order_id'] );
		$order            = wc_get_order( $order_id );
		$user_can_cancel  = true; // current_user_can( 'cancel_order', $order_id ): the buyer's own order.
		$order_can_cancel = $order->has_status( apply_filters( 'woocommerce_valid_order_statuses_for_cancel', array( 'pending', 'failed' ), $order ) );
		$redirect         = isset( $_GET['redirect'] ) ? wp_unslash( $_GET['redirect'] ) : '';

		if ( $user_can_cancel && $order_can_cancel && $order->get_id() === $order_id && hash_equals( $order->get_order_key(), $order_key ) ) {
			$order->update_status( 'cancelled', 'Order cancelled by customer.' );
			wc_add_notice( 'Your order was cancelled.', 'notice' );
			do_action( 'woocommerce_cancelled_order', $order->get_id() );
		} elseif ( $user_can_cancel && ! $order_can_cancel ) {
			wc_add_notice( 'Your order can no longer be cancelled. Please contact us if you need assistance.', 'error' );
		} elseif ( ! $user_can_cancel ) {
			wc_add_notice( 'Invalid order.', 'error' );
		}

		if ( $redirect ) {
			wp_safe_redirect( $redirect );
			exit;
		}
	}
}

function wc_get_order( $order_id ) {
	if ( isset( $GLOBALS['harness_refunds'][ (int) $order_id ] ) ) {
		return $GLOBALS['harness_refunds'][ (int) $order_id ];
	}
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
		return home_url( '/?wc-api=' . $request );
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
