<?php
/**
 * Deleting the plugin (Plugins > Delete, after deactivating it) removes what it kept in WordPress:
 * its settings, the connect token, the outcome of the last connect attempt, the gateway's payment
 * page origin, and its transients (the health check, one-time admin messages). Orders keep the
 * gateway payment id (order meta and transaction id): it is the shop's record of how they were paid.
 * The connection at the connector is not touched: "Remove connection" on the settings page, before
 * deleting the plugin, makes the connector forget the store's keys.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

/**
 * Removes the plugin's options and transients from the current site.
 */
function armenian_gateway_uninstall_site() {
	global $wpdb;
	foreach ( array( 'woocommerce_armenian_gateway_settings', 'armenian_gateway_connect_token', 'armenian_gateway_connect_result', 'armenian_gateway_checkout_origin', 'armenian_gateway_payments_blocked', 'armenian_gateway_key_app' ) as $option ) {
		delete_option( $option );
	}
	// The hourly connection check and any pending resend (WP-Cron).
	foreach ( array( 'armenian_gateway_health_refresh', 'armenian_gateway_resend_refund', 'armenian_gateway_cancel_payment' ) as $hook ) {
		if ( function_exists( 'wp_unschedule_hook' ) ) {
			wp_unschedule_hook( $hook );
		}
	}
	// Transients, per user and per order ones included: armenian_gateway_health, _unreachable, _connection_{user}, _check_{order}_{user}, _reconciliation_{user}.
	$wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- one clean-up on uninstall; there is no API to delete transients by prefix.
		$wpdb->prepare(
			'DELETE FROM ' . $wpdb->options . ' WHERE option_name LIKE %s OR option_name LIKE %s',
			$wpdb->esc_like( '_transient_armenian_gateway_' ) . '%',
			$wpdb->esc_like( '_transient_timeout_armenian_gateway_' ) . '%'
		)
	);
}

if ( is_multisite() && function_exists( 'get_sites' ) ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $armenian_gateway_site ) {
		switch_to_blog( (int) $armenian_gateway_site );
		armenian_gateway_uninstall_site();
		restore_current_blog();
	}
} else {
	armenian_gateway_uninstall_site();
}
