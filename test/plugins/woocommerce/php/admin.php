<?php
/**
 * The WordPress admin around the plugin, as far as the plugin's pages need it: admin-post.php
 * (`admin_post_{action}`), the order edit page in both storages (HPOS `admin.php?page=wc-orders&action=edit&id=N`,
 * posts `post.php?post=N&action=edit`) with its meta boxes, submenu pages, the payment method settings
 * page and the Plugins screen; every page prints `admin_notices` first, as WordPress does.
 * Used by harness.php (one scenario per process) and router.php (`php -S`, for the browser tests).
 */

/**
 * Answers one admin request for `$path` from $_GET/$_POST/$_REQUEST.
 *
 * @param string              $path    The URL path (`/wp-admin/admin.php`).
 * @param Armenian_Gateway $gateway The gateway WooCommerce built.
 */
function harness_admin_request( $path, $gateway ) {
	do_action( 'admin_init' );
	do_action( 'admin_menu' );
	$method = isset( $_SERVER['REQUEST_METHOD'] ) ? $_SERVER['REQUEST_METHOD'] : 'GET';
	$page   = isset( $_GET['page'] ) ? (string) $_GET['page'] : '';
	$GLOBALS['harness_screen'] = harness_screen_id( $path, $page );

	if ( '/wp-admin/admin-post.php' === $path ) {
		$action = isset( $_REQUEST['action'] ) ? (string) $_REQUEST['action'] : '';
		if ( '' === $action || ! has_action( 'admin_post_' . $action ) ) {
			wp_die( '', '', array( 'response' => 400 ) );
		}
		do_action( 'admin_post_' . $action );
		$GLOBALS['harness']['errors'][] = 'the admin-post handler did not exit';
		return;
	}
	if ( '/wp-admin/post.php' === $path ) {
		$id = isset( $_GET['post'] ) ? (int) $_GET['post'] : 0;
		harness_order_edit_page( 'shop_order', new WP_Post( $id ), wc_get_order( $id ) );
		return;
	}
	if ( '/wp-admin/admin.php' === $path && 'wc-orders' === $page ) {
		$order = wc_get_order( isset( $_GET['id'] ) ? (int) $_GET['id'] : 0 );
		harness_order_edit_page( 'woocommerce_page_wc-orders', $order, $order );
		return;
	}
	if ( '/wp-admin/admin.php' === $path && 'wc-settings' === $page ) {
		if ( 'POST' === $method ) {
			check_admin_referer( 'woocommerce-settings' );
			$GLOBALS['harness_post'] = $_POST;
			$gateway->process_admin_options();
			// WooCommerce builds the gateways again after saving, then renders the page.
			$gateway = new Armenian_Gateway();
		}
		harness_admin_chrome(
			'Armenian Payment Gateway',
			function () use ( $gateway ) {
				foreach ( $GLOBALS['harness']['settings_errors'] as $error ) {
					echo '<div id="message" class="error inline"><p><strong>' . esc_html( $error ) . '</strong></p></div>';
				}
				echo '<form method="post" id="mainform" action="" enctype="multipart/form-data">';
				$gateway->admin_options();
				wp_nonce_field( 'woocommerce-settings' );
				echo '<p class="submit"><button name="save" class="button-primary" type="submit" value="Save changes">Save changes</button></p></form>';
			}
		);
		return;
	}
	if ( '/wp-admin/admin.php' === $path && isset( $GLOBALS['harness_submenu_callbacks'][ $page ] ) ) {
		harness_admin_chrome( '', $GLOBALS['harness_submenu_callbacks'][ $page ] );
		return;
	}
	if ( '/wp-admin/plugins.php' === $path ) {
		harness_admin_chrome(
			'Plugins',
			function () {
				$links = apply_filters( 'plugin_action_links_' . plugin_basename( ARMENIAN_GATEWAY_FILE ), array( 'deactivate' => '<a href="#">Deactivate</a>' ) );
				echo '<table class="wp-list-table widefat plugins"><tr class="active"><td><strong>Armenian Payment Gateway</strong><div class="row-actions visible">' . implode( ' | ', $links ) . '</div></td></tr></table>';
			}
		);
		return;
	}
	harness_admin_chrome(
		'Dashboard',
		function () {
			echo '<p>Welcome to WordPress.</p>';
		}
	);
}

/**
 * The screen id WordPress gives the page (get_current_screen()->id).
 *
 * @param string $path The URL path.
 * @param string $page The `page` query argument.
 * @return string|null
 */
function harness_screen_id( $path, $page ) {
	if ( '/wp-admin/admin-post.php' === $path ) {
		return null;
	}
	if ( '/wp-admin/post.php' === $path ) {
		return 'shop_order';
	}
	if ( '/wp-admin/plugins.php' === $path ) {
		return 'plugins';
	}
	if ( '/wp-admin/admin.php' === $path && '' !== $page ) {
		return 'woocommerce_page_' . $page;
	}
	return 'dashboard';
}

/**
 * The order edit page: `add_meta_boxes` with the screen id and the order (HPOS) or its post, then
 * the side meta boxes of that screen next to the order's details.
 *
 * @param string         $screen_id The screen id.
 * @param mixed          $object    What WooCommerce passes to the meta boxes.
 * @param WC_Order|false $order     The order.
 */
function harness_order_edit_page( $screen_id, $object, $order ) {
	if ( ! $order ) {
		wp_die( 'You attempted to edit an item that does not exist.', '', array( 'response' => 404 ) );
	}
	do_action( 'add_meta_boxes', $screen_id, $object );
	harness_admin_chrome(
		'Edit order #' . $order->get_order_number(),
		function () use ( $screen_id, $object, $order ) {
			echo '<form name="post" method="post" id="post"><div id="poststuff"><div id="post-body" class="columns-2">';
			echo '<div id="post-body-content"><div class="postbox order-data"><div class="inside"><h2>Order #' . esc_html( $order->get_order_number() ) . ' details</h2>';
			echo '<p>Payment via Bank card or wallet. Customer: ' . esc_html( $order->get_billing_first_name() . ' ' . $order->get_billing_last_name() ) . ', ' . esc_html( $order->get_billing_email() ) . '</p>';
			echo '<p>Status: <strong class="order-status">' . esc_html( $order->get_status() ) . '</strong> &middot; Total: ' . esc_html( $order->get_total() ) . ' ' . esc_html( $order->get_currency() ) . '</p>';
			echo '</div></div></div><div id="postbox-container-1" class="postbox-container">';
			foreach ( isset( $GLOBALS['harness_meta_boxes'] ) ? $GLOBALS['harness_meta_boxes'] : array() as $box ) {
				list( $id, $title, $callback, $screen ) = $box;
				if ( $screen !== $screen_id ) {
					continue;
				}
				echo '<div id="' . esc_attr( $id ) . '" class="postbox"><div class="postbox-header"><h2 class="hndle">' . esc_html( $title ) . '</h2></div><div class="inside">';
				call_user_func( $callback, $object );
				echo '</div></div>';
			}
			echo '</div></div></div></form>';
		}
	);
}

/**
 * The admin page around some content: notices first, as WordPress prints them.
 *
 * @param string   $title The page heading ('' when the content has its own).
 * @param callable $body  Prints the content.
 */
function harness_admin_chrome( $title, $body ) {
	do_action( 'admin_enqueue_scripts', isset( $GLOBALS['harness_screen'] ) ? (string) $GLOBALS['harness_screen'] : '' );
	echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>' . esc_html( '' !== $title ? $title : 'Admin' ) . ' ‹ Shop — WordPress</title><style>' . harness_admin_css() . '</style></head>';
	echo '<body class="wp-admin"><div id="adminmenu"><div class="menu-item">Dashboard</div><div class="menu-item">Orders</div><div class="menu-item current">WooCommerce</div><div class="menu-item">Plugins</div></div>';
	echo '<div id="wpcontent"><div id="wpbody-content"><div class="wrap">';
	if ( '' !== $title ) {
		echo '<h1 class="wp-heading-inline">' . esc_html( $title ) . '</h1>';
	}
	echo '<div class="harness-notices">';
	do_action( 'admin_notices' );
	echo '</div>';
	call_user_func( $body );
	echo '</div></div></div>';
	// The footer scripts, as WordPress prints them.
	foreach ( isset( $GLOBALS['harness']['enqueued'] ) ? $GLOBALS['harness']['enqueued'] : array() as $handle => $script ) {
		echo '<script src="' . esc_url( $script['src'] . '?ver=' . $script['ver'] ) . '" id="' . esc_attr( $handle ) . '-js"></script>';
	}
	echo '</body></html>';
}

/** A little of wp-admin's look, for readable screenshots. */
function harness_admin_css() {
	return 'body{margin:0;background:#f0f0f1;color:#3c434a;font:13px/1.4 -apple-system,"Segoe UI",Roboto,sans-serif}'
		. '#adminmenu{position:fixed;top:0;bottom:0;left:0;width:160px;background:#1d2327;padding-top:12px}'
		. '.menu-item{color:#f0f0f1;padding:8px 12px}.menu-item.current{background:#2271b1}'
		. '#wpcontent{margin-left:160px;padding:10px 20px}h1{font-size:23px;font-weight:400;margin:10px 0}'
		. 'h2{font-size:14px;margin:8px 0}.notice{background:#fff;border-left:4px solid #72aee6;box-shadow:0 1px 1px rgba(0,0,0,.04);margin:5px 0 12px;padding:1px 12px}'
		. '.notice p{margin:.5em 0}.notice-error{border-left-color:#d63638}.notice-warning{border-left-color:#dba617}.notice-success{border-left-color:#00a32a}'
		. '.button{display:inline-block;border:1px solid #2271b1;color:#2271b1;background:#f6f7f7;border-radius:3px;padding:2px 10px;text-decoration:none;font-size:13px;line-height:2;cursor:pointer}'
		. '.button-primary{background:#2271b1;color:#fff}#poststuff #post-body{display:flex;gap:20px}#post-body-content{flex:1}'
		. '#postbox-container-1{width:300px}.postbox{background:#fff;border:1px solid #c3c4c7;margin-bottom:20px}'
		. '.postbox .hndle{font-size:14px;padding:8px 12px;margin:0;border-bottom:1px solid #c3c4c7}.inside{padding:0 12px 12px}'
		. 'table.widefat{background:#fff;border:1px solid #c3c4c7;border-collapse:collapse;width:100%}'
		. '.widefat td,.widefat th{padding:6px 8px;text-align:left;vertical-align:top}.striped>tbody>:nth-child(odd){background:#f6f7f7}'
		. '.armenian-gateway-payment th{width:40%;font-weight:600}.description{color:#646970;font-style:italic}'
		. 'form.armenian-gateway-reconcile-form{margin:12px 0}input{margin-right:8px}code{font-size:11px}';
}
