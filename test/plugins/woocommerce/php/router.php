<?php
/**
 * The stubbed WordPress admin served over HTTP for the browser tests:
 *
 *   HARNESS_STATE=/tmp/state.json HARNESS_SITE_URL=http://127.0.0.1:PORT php -S 127.0.0.1:PORT router.php
 *
 * Each request loads the state file (options and transients, orders, order storage, the user's
 * capabilities), runs the plugin in the stubs (admin.php answers the admin URLs), and writes the state
 * back, so that admin-post -> redirect -> page works across requests. PHP warnings, the plugin's
 * connector calls (without header values) and its log lines are appended to the state for the test.
 * GET /harness-idle answers 204 without touching the state: the test's way to wait for the requests
 * a page left running (the built-in server takes them one at a time).
 */

// The plugin's own files under /wp-content/plugins/wordpress-plugin/assets/, as the web server serves them.
$harness_asset = (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
if ( 0 === strpos( $harness_asset, '/wp-content/plugins/wordpress-plugin/assets/' ) && false === strpos( $harness_asset, '..' ) ) {
	$harness_file = __DIR__ . '/../../../../plugins/woocommerce/wordpress-plugin/' . substr( $harness_asset, strlen( '/wp-content/plugins/wordpress-plugin/' ) );
	if ( is_file( $harness_file ) ) {
		header( 'Content-Type: text/javascript' );
		readfile( $harness_file );
		return true;
	}
}

// The test's barrier: the server answers one request at a time, so once this answers, every earlier
// request has finished and written its state.
if ( '/harness-idle' === $harness_asset ) {
	http_response_code( 204 );
	return true;
}

$harness_state_file = (string) getenv( 'HARNESS_STATE' );
$harness_state      = json_decode( (string) file_get_contents( $harness_state_file ), true );
if ( ! is_array( $harness_state ) ) {
	http_response_code( 500 );
	echo 'HARNESS_STATE is not a JSON state file';
	return true;
}

$GLOBALS['harness_serve']   = true;
$GLOBALS['harness_caps']    = isset( $harness_state['caps'] ) ? $harness_state['caps'] : array( 'manage_woocommerce', 'edit_shop_orders' );
$GLOBALS['harness_storage'] = isset( $harness_state['storage'] ) ? $harness_state['storage'] : 'hpos';

require __DIR__ . '/stubs.php';
require __DIR__ . '/stubs-woocommerce.php';
require __DIR__ . '/stubs-namespaced.php';
require __DIR__ . '/admin.php';

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
		http_response_code( 500 );
	}
);

$GLOBALS['harness']['options'] = isset( $harness_state['options'] ) ? $harness_state['options'] : array();
foreach ( isset( $harness_state['orders'] ) ? $harness_state['orders'] : array() as $harness_order ) {
	$GLOBALS['harness_orders'][ (int) $harness_order['id'] ] = WC_Order::from_array( $harness_order );
}

register_shutdown_function(
	function () use ( $harness_state_file, $harness_state ) {
		$state            = $harness_state;
		$state['options'] = (object) $GLOBALS['harness']['options'];
		$state['orders']  = array();
		foreach ( $GLOBALS['harness_orders'] as $order ) {
			$state['orders'][] = $order->to_array();
		}
		foreach ( array( 'errors', 'http', 'logs' ) as $list ) {
			$state[ $list ] = array_merge( isset( $state[ $list ] ) ? $state[ $list ] : array(), $GLOBALS['harness'][ $list ] );
		}
		$state['requests'][] = array(
			'method'   => isset( $_SERVER['REQUEST_METHOD'] ) ? $_SERVER['REQUEST_METHOD'] : 'GET',
			'uri'      => isset( $_SERVER['REQUEST_URI'] ) ? $_SERVER['REQUEST_URI'] : '',
			'redirect' => $GLOBALS['harness']['redirect'],
		);
		// Written aside and renamed over, so a reader never sees a half-written file.
		$partial = $harness_state_file . '.partial';
		file_put_contents( $partial, json_encode( $state, JSON_UNESCAPED_SLASHES | JSON_PRETTY_PRINT ) );
		rename( $partial, $harness_state_file );
	}
);

define( 'ABSPATH', __DIR__ . '/' );
// The fake connector listens on 127.0.0.1: a development site's wp-config.php says so.
define( 'ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR', true );
require __DIR__ . '/../../../../plugins/woocommerce/wordpress-plugin/armenian-payment-gateway.php';
do_action( 'before_woocommerce_init' );
do_action( 'plugins_loaded' );
$harness_gateway = new Armenian_Gateway();
WC()->payment_gateways()->gateways[ $harness_gateway->id ] = $harness_gateway;

$_REQUEST = array_merge( $_GET, $_POST );
harness_admin_request( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ), $harness_gateway );
return true;
