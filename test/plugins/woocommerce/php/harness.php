<?php
/**
 * Runs the WooCommerce plugin inside the stubs for one scenario and prints, as one JSON line, what
 * it did: the scenario's result, notices, redirect, order state, logs, printed output, HTTP calls
 * (without header values) and any PHP warning.
 *
 *   HARNESS_CONNECTOR_URL=http://127.0.0.1:PORT HARNESS_CONNECT_TOKEN=... php harness.php <scenario> ['{"json":"options"}']
 *
 * Scenarios: bootstrap, payment, return, refund, status (the order's status changed to `to`), resend_refund (WP-Cron's resend of a refund: `body`,
 * `attempt`), settings (save then render), admin (render),
 * cancel (WooCommerce's own cancel handler on the cart URL), uninstall (uninstall.php; `direct: true`
 * without WP_UNINSTALL_PLUGIN), page (one admin request: `path`, `method`,
 * `get`, `post`, see admin.php), and no_woocommerce (WordPress without WooCommerce).
 * Options: `storage` (hpos or posts), `caps` (the user's capabilities), `order` (order fields),
 * `transients` (set before the run), `settings`, `store_currency`, `order_id`, `order_key`, `currency`,
 * `local_connector` (false: no ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR, as on a production site),
 * `options` (WordPress options set before the run, e.g. `timezone_string`).
 */

$scenario = isset( $argv[1] ) ? $argv[1] : '';
$options  = isset( $argv[2] ) ? json_decode( $argv[2], true ) : array();

if ( isset( $options['caps'] ) ) {
	$GLOBALS['harness_caps'] = $options['caps'];
}
if ( isset( $options['storage'] ) ) {
	$GLOBALS['harness_storage'] = $options['storage'];
}

require __DIR__ . '/stubs.php';
if ( 'no_woocommerce' !== $scenario ) {
	require __DIR__ . '/stubs-woocommerce.php';
	require __DIR__ . '/stubs-namespaced.php';
}

error_reporting( E_ALL );
set_error_handler(
	function ( $errno, $errstr, $file, $line ) {
		if ( ! ( error_reporting() & $errno ) ) {
			return false;
		}
		$GLOBALS['harness']['errors'][] = $errstr . ' at ' . basename( $file ) . ':' . $line;
		return true;
	}
);
set_exception_handler(
	function ( $exception ) {
		$GLOBALS['harness']['errors'][] = get_class( $exception ) . ': ' . $exception->getMessage() . ' at ' . basename( $exception->getFile() ) . ':' . $exception->getLine();
	}
);

/**
 * A value as JSON can carry it.
 *
 * @param mixed $value Anything the plugin returned.
 * @return mixed
 */
function harness_export( $value ) {
	if ( $value instanceof WP_Error ) {
		return array(
			'wp_error' => $value->get_error_code(),
			'message'  => $value->get_error_message(),
		);
	}
	return $value;
}

ob_start();
register_shutdown_function(
	function () {
		$output = '';
		while ( ob_get_level() > 0 ) {
			$output .= ob_get_clean();
		}
		$harness           = $GLOBALS['harness'];
		$harness['output'] = $output;
		$harness['orders'] = array();
		foreach ( $GLOBALS['harness_orders'] as $id => $order ) {
			$harness['orders'][ $id ] = array(
				'meta'           => (object) $order->saved_meta,
				'transaction_id' => $order->transaction_id,
				'saves'  => $order->saves,
				'notes'  => $order->notes,
				'status' => $order->status,
			);
		}
		// Hooks hold closures; the options are shown with the connect token masked.
		$harness['options'] = $harness['options'];
		if ( isset( $harness['options']['woocommerce_armenian_gateway_settings']['connect_token'] ) ) {
			$harness['options']['woocommerce_armenian_gateway_settings']['connect_token'] = '' === $harness['options']['woocommerce_armenian_gateway_settings']['connect_token'] ? '' : '[set]';
		}
		if ( isset( $harness['options']['armenian_gateway_connect_token'] ) ) {
			$harness['options']['armenian_gateway_connect_token'] = '[set]';
		}
		$harness['options'] = (object) $harness['options'];
		unset( $harness['hooks'] );
		echo json_encode( $harness, JSON_UNESCAPED_SLASHES ) . "\n";
	}
);

$GLOBALS['harness']['scenario'] = $scenario;
define( 'ABSPATH', __DIR__ . '/' );
// The fake connector listens on 127.0.0.1: a development site's wp-config.php says so. `local_connector: false` is a production site.
if ( ! isset( $options['local_connector'] ) || false !== $options['local_connector'] ) {
	define( 'ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR', true );
}
$plugin_file = __DIR__ . '/../../../../plugins/woocommerce/wordpress-plugin/armenian-payment-gateway.php';

if ( 'no_woocommerce' === $scenario ) {
	require $plugin_file;
	do_action( 'plugins_loaded' );
	do_action( 'admin_notices' );
	$GLOBALS['harness']['hook_names']     = array_keys( $GLOBALS['harness']['hooks'] );
	$GLOBALS['harness']['gateway_loaded'] = class_exists( 'Armenian_Gateway', false );
	exit;
}

if ( isset( $options['store_currency'] ) ) {
	$GLOBALS['harness_currency'] = $options['store_currency'];
}

update_option(
	'woocommerce_armenian_gateway_settings',
	array_merge(
		array(
			'enabled'       => 'yes',
			'title'         => 'Bank card or wallet',
			'description'   => 'Pay with an Armenian bank card or wallet.',
			'connect_token' => (string) getenv( 'HARNESS_CONNECT_TOKEN' ),
			'connector_url' => (string) getenv( 'HARNESS_CONNECTOR_URL' ),
			'test_mode'     => 'yes',
		),
		isset( $options['settings'] ) ? $options['settings'] : array()
	)
);

$order = new WC_Order(
	isset( $options['order_id'] ) ? $options['order_id'] : 123,
	isset( $options['order_key'] ) ? $options['order_key'] : 'wc_order_k3y',
	isset( $options['currency'] ) ? $options['currency'] : 'AMD'
);
foreach ( isset( $options['order'] ) ? $options['order'] : array() as $field => $value ) {
	$order->$field = $value;
}
foreach ( isset( $options['options'] ) ? $options['options'] : array() as $name => $value ) {
	update_option( $name, $value );
}
foreach ( isset( $options['transients'] ) ? $options['transients'] : array() as $name => $value ) {
	set_transient( $name, $value );
}
$GLOBALS['harness']['transient_writes'] = array();
$GLOBALS['harness']['api_keys'] = isset( $options['api_keys'] ) ? $options['api_keys'] : array();
foreach ( isset( $options['refunds'] ) ? $options['refunds'] : array() as $refund_id ) {
	$order->refunds[] = new WC_Order_Refund( $refund_id );
}
$GLOBALS['harness_orders'][ $order->get_id() ] = $order;

require $plugin_file;

$GLOBALS['harness']['loaded_before_plugins_loaded'] = class_exists( 'Armenian_Gateway', false );
$GLOBALS['harness']['hook_names']                   = array_keys( $GLOBALS['harness']['hooks'] );
do_action( 'before_woocommerce_init' );
do_action( 'plugins_loaded' );
$gateway_classes                       = apply_filters( 'woocommerce_payment_gateways', array() );
$GLOBALS['harness']['gateway_classes'] = $gateway_classes;
$gateway                               = new Armenian_Gateway();
WC()->payment_gateways()->gateways[ $gateway->id ] = $gateway;

switch ( $scenario ) {
	case 'bootstrap':
		$registry = new Harness_Payment_Method_Registry();
		do_action( 'woocommerce_blocks_payment_method_type_registration', $registry );
		$blocks = $registry->registered[0];
		$blocks->initialize();
		$GLOBALS['harness']['blocks']  = array(
			'class'   => get_class( $blocks ),
			'name'    => $blocks->get_name(),
			'active'  => $blocks->is_active(),
			'handles' => $blocks->get_payment_method_script_handles(),
			'data'    => $blocks->get_payment_method_data(),
		);
		$GLOBALS['harness']['gateway'] = array(
			'id'         => $gateway->id,
			'supports'   => $gateway->supports,
			'title'      => $gateway->title,
			'available'  => $gateway->is_available(),
			'fields'     => array_keys( $gateway->form_fields ),
			'field_type' => array_map(
				function ( $field ) {
					return $field['type'];
				},
				$gateway->form_fields
			),
			'field_default'     => array_map(
				function ( $field ) {
					return isset( $field['default'] ) ? $field['default'] : null;
				},
				$gateway->form_fields
			),
			'field_description' => array_map(
				function ( $field ) {
					return isset( $field['description'] ) ? $field['description'] : null;
				},
				$gateway->form_fields
			),
		);
		$gateway->payment_fields();
		break;

	case 'payment':
		$GLOBALS['harness']['result'] = harness_export( $gateway->process_payment( $order->get_id() ) );
		break;

	case 'return':
		$_GET = isset( $options['get'] ) ? $options['get'] : array();
		do_action( 'woocommerce_api_wc_armenian_gateway' );
		$GLOBALS['harness']['errors'][] = 'the return handler did not exit';
		break;

	case 'refund':
		$GLOBALS['harness']['result'] = harness_export(
			$gateway->process_refund(
				$order->get_id(),
				isset( $options['amount'] ) ? $options['amount'] : null,
				isset( $options['reason'] ) ? $options['reason'] : ''
			)
		);
		break;

	case 'thankyou':
		// The order received page (classic or block theme) runs the method's thank-you hook.
		do_action( 'woocommerce_thankyou_armenian_gateway', $order->get_id() );
		break;

	case 'status':
		// The shop owner changes the order's status (WC_Order::update_status(): the status hooks fire).
		$order->update_status( $options['to'] );
		break;

	case 'cron':
		// WP-Cron runs a scheduled hook.
		do_action( $options['hook'], ...( isset( $options['args'] ) ? $options['args'] : array() ) );
		break;

	case 'resend_refund':
		// WP-Cron runs the scheduled resend of a refund whose answer never arrived.
		do_action( 'armenian_gateway_resend_refund', $order->get_id(), $options['body'], isset( $options['attempt'] ) ? $options['attempt'] : 1 );
		break;

	case 'settings':
		$GLOBALS['harness_post']      = isset( $options['post'] ) ? $options['post'] : array();
		$_POST                        = $GLOBALS['harness_post'];
		$GLOBALS['harness']['result'] = $gateway->process_admin_options();
		// WooCommerce builds the gateways again after saving, then renders the settings page.
		$gateway = new Armenian_Gateway();
		$gateway->admin_options();
		break;

	case 'admin':
		$gateway->admin_options();
		break;

	case 'uninstall':
		// WordPress defines WP_UNINSTALL_PLUGIN before it includes uninstall.php; `direct: true` is a request straight to the file.
		if ( empty( $options['direct'] ) ) {
			define( 'WP_UNINSTALL_PLUGIN', 'wordpress-plugin/armenian-payment-gateway.php' );
		}
		include __DIR__ . '/../../../../plugins/woocommerce/wordpress-plugin/uninstall.php';
		$GLOBALS['harness']['result'] = 'uninstalled';
		break;

	case 'cancel':
		$_GET = isset( $options['get'] ) ? $options['get'] : array();
		harness_wc_cancel_order();
		break;

	case 'page':
		require __DIR__ . '/admin.php';
		$_SERVER['REQUEST_METHOD'] = isset( $options['method'] ) ? $options['method'] : 'GET';
		$_GET                      = isset( $options['get'] ) ? $options['get'] : array();
		$_POST                     = isset( $options['post'] ) ? $options['post'] : array();
		$_REQUEST                  = array_merge( $_GET, $_POST );
		harness_admin_request( $options['path'], $gateway );
		break;

	default:
		$GLOBALS['harness']['errors'][] = 'unknown scenario ' . $scenario;
}
