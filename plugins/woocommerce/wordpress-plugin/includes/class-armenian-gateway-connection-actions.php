<?php
/**
 * The connection's "Reconnect" and "Remove connection" actions (admin-post, each behind its nonce
 * and the shop manager's capability), and the store's REST keys the key exchange made.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Starts the key exchange again, or removes the connection (revoking the keys the connector used);
 * keeps only the REST key the connector holds once the connection is healthy.
 */
final class Armenian_Gateway_Connection_Actions {

	/**
	 * The admin-post action that starts the key exchange again.
	 */
	const RECONNECT_ACTION = 'armenian_gateway_reconnect';

	/**
	 * The admin-post action that removes the connection.
	 */
	const REMOVE_ACTION = 'armenian_gateway_remove_connection';

	/**
	 * Option holding the app name the connector's key exchange gives the REST keys it makes, as last
	 * seen: "Remove connection" revokes those keys.
	 */
	const KEY_APP_OPTION = 'armenian_gateway_key_app';

	/**
	 * Hooks the actions.
	 */
	public static function register() {
		add_action( 'admin_post_' . self::RECONNECT_ACTION, array( __CLASS__, 'reconnect' ) );
		add_action( 'admin_post_' . self::REMOVE_ACTION, array( __CLASS__, 'remove' ) );
	}

	/**
	 * The connector's approval link when it is this store's own WooCommerce approval page
	 * (`<home>/wc-auth/v1/authorize`, same scheme, host and port as the store), else ''.
	 *
	 * @param mixed $url The connector's `authorize_url`.
	 * @return string
	 */
	public static function approval_url( $url ) {
		if ( ! is_string( $url ) || '' === $url ) {
			return '';
		}
		$link  = wp_parse_url( $url );
		$store = wp_parse_url( home_url( '/' ) );
		if ( ! is_array( $link ) || ! is_array( $store ) || isset( $link['user'] ) || isset( $link['pass'] ) || isset( $link['fragment'] ) ) {
			return '';
		}
		foreach ( array( 'scheme', 'host', 'port' ) as $part ) {
			$ours   = isset( $store[ $part ] ) ? strtolower( (string) $store[ $part ] ) : '';
			$theirs = isset( $link[ $part ] ) ? strtolower( (string) $link[ $part ] ) : '';
			if ( $ours !== $theirs ) {
				return '';
			}
		}
		$path = isset( $store['path'] ) ? untrailingslashit( (string) $store['path'] ) : '';
		if ( ! isset( $link['path'] ) || $path . '/wc-auth/v1/authorize' !== $link['path'] ) {
			return '';
		}
		return $url;
	}

	/**
	 * The "Reconnect" link (with its nonce).
	 *
	 * @return string
	 */
	public static function reconnect_url() {
		return wp_nonce_url( admin_url( 'admin-post.php?action=' . self::RECONNECT_ACTION ), self::RECONNECT_ACTION );
	}

	/**
	 * The "Remove connection" link (with its nonce).
	 *
	 * @return string
	 */
	public static function remove_url() {
		return wp_nonce_url( admin_url( 'admin-post.php?action=' . self::REMOVE_ACTION ), self::REMOVE_ACTION );
	}

	/**
	 * Checks the nonce and the capability of an action, or stops.
	 *
	 * @param string $action The action (also the nonce action).
	 */
	private static function authorize( $action ) {
		check_admin_referer( $action );
		if ( ! current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to change the payment gateway connection.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
	}

	/**
	 * "Reconnect": `POST /v1/connection/reconnect`, then on to WooCommerce's approval screen.
	 */
	public static function reconnect() {
		self::authorize( self::RECONNECT_ACTION );
		Armenian_Gateway_Health::forget();
		$result = Armenian_Gateway_Connector::from_settings()->request( 'POST', '/v1/connection/reconnect', array(), Armenian_Gateway_Connector::ACTION_TIMEOUT );
		$url    = $result->is_ok() ? self::approval_url( $result->field( 'authorize_url' ) ) : '';
		if ( '' !== $url ) {
			// The store's own host: wp_safe_redirect allows it without widening allowed_redirect_hosts.
			wp_safe_redirect( $url );
			exit;
		}
		if ( $result->is_ok() ) {
			$result = Armenian_Gateway_Response::failure( $result->status, Armenian_Gateway_Response::INVALID_RESPONSE, __( 'The connector answered without an approval link to this store\'s WooCommerce approval page.', 'armenian-payment-gateway' ) );
		}
		Armenian_Gateway_Connector::log( 'warning', 'Reconnecting the store failed', $result );
		Armenian_Gateway_Admin_Format::flash(
			'connection',
			array(
				'type'    => 'error',
				/* translators: %s: the connector's error message. */
				'message' => sprintf( __( 'Reconnecting failed: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ),
			)
		);
		wp_safe_redirect( Armenian_Gateway_Health::settings_url() );
		exit;
	}

	/**
	 * "Remove connection": `DELETE /v1/connection`; the payment method is switched off, since checkout
	 * cannot work without a connection.
	 */
	public static function remove() {
		self::authorize( self::REMOVE_ACTION );
		Armenian_Gateway_Health::forget();
		$result = Armenian_Gateway_Connector::from_settings()->request( 'DELETE', '/v1/connection', null, Armenian_Gateway_Connector::ACTION_TIMEOUT );
		if ( $result->is_ok() || $result->is_error( 'connection_not_found' ) ) {
			$settings = get_option( Armenian_Gateway_Connector::SETTINGS_OPTION, array() );
			if ( is_array( $settings ) ) {
				$settings['enabled'] = 'no';
				update_option( Armenian_Gateway_Connector::SETTINGS_OPTION, $settings );
			}
			// The connector forgot the store's keys: they are revoked here too, so none stays valid.
			$app = get_option( self::KEY_APP_OPTION, '' );
			if ( is_string( $app ) && '' !== $app ) {
				self::delete_app_keys( $app, null );
			}
			delete_option( self::KEY_APP_OPTION );
			$flash = array(
				'type'    => 'success',
				'message' => __( 'The connection was removed: the connector no longer updates your orders, and the store\'s REST keys it used were revoked. The payment method is switched off; save the settings again to connect anew.', 'armenian-payment-gateway' ),
			);
		} else {
			Armenian_Gateway_Connector::log( 'warning', 'Removing the connection failed', $result );
			$flash = array(
				'type'    => 'error',
				/* translators: %s: the connector's error message. */
				'message' => sprintf( __( 'Removing the connection failed: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ),
			);
		}
		Armenian_Gateway_Admin_Format::flash( 'connection', $flash );
		wp_safe_redirect( Armenian_Gateway_Health::settings_url() );
		exit;
	}

	/**
	 * After a healthy look at the connection: revokes the store's REST keys the plugin's earlier key
	 * exchanges made and the connector no longer uses (each Reconnect or new token makes one), keeping
	 * the one it holds. WooCommerce describes a key its key exchange makes "<app name> - API (date)";
	 * keys the shop owner made by hand are left alone.
	 *
	 * @param Armenian_Gateway_Response $result The connector's `GET /v1/connection` answer.
	 */
	public static function revoke_replaced_keys( Armenian_Gateway_Response $result ) {
		if ( ! $result->is_ok() || 'active' !== Armenian_Gateway_Response::text_of( $result->body, 'status' ) ) {
			return;
		}
		$key  = Armenian_Gateway_Response::array_of( $result->body, 'store_key' );
		$keep = Armenian_Gateway_Response::text_of( $key, 'truncated_key' );
		$app  = Armenian_Gateway_Response::text_of( $key, 'app_name' );
		if ( 1 !== preg_match( '/^[A-Za-z0-9]{7}$/', $keep ) || '' === $app || strlen( $app ) > 170 ) {
			return;
		}
		update_option( self::KEY_APP_OPTION, $app, false );
		self::delete_app_keys( $app, $keep );
	}

	/**
	 * Deletes the REST keys WooCommerce's key exchange made for `$app`, but the one ending in `$keep`
	 * (all of them when null).
	 *
	 * @param string      $app  The app name of the key exchange.
	 * @param string|null $keep The truncated key to keep.
	 * @return int How many were revoked.
	 */
	private static function delete_app_keys( $app, $keep ) {
		global $wpdb;
		if ( ! isset( $wpdb ) ) {
			return 0;
		}
		$table = $wpdb->prefix . 'woocommerce_api_keys';
		$like  = $wpdb->esc_like( $app . ' - API (' ) . '%';
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- WooCommerce offers no API to revoke a REST key.
		$deleted = null === $keep
			? $wpdb->query( $wpdb->prepare( 'DELETE FROM ' . $table . ' WHERE description LIKE %s', $like ) )
			: $wpdb->query( $wpdb->prepare( 'DELETE FROM ' . $table . ' WHERE description LIKE %s AND truncated_key <> %s', $like, $keep ) );
		return (int) $deleted;
	}
}
