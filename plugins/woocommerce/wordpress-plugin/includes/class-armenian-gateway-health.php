<?php
/**
 * The connection health notice (its "Reconnect" and "Remove connection" actions are
 * class-armenian-gateway-connection-actions.php).
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Asks the connector how the connection is (`GET /v1/connection`, which asks the gateway), keeps
 * the answer a few minutes, and tells shop managers on WooCommerce's screens (and the Plugins
 * screen) what is wrong and what to do, in notices they can dismiss.
 */
final class Armenian_Gateway_Health {

	/**
	 * Transient holding the last health check.
	 */
	const TRANSIENT = 'armenian_gateway_health';

	/**
	 * Seconds a health check is kept.
	 */
	const CACHE_SECONDS = 300;

	/**
	 * Seconds a health check that got no answer from the connector is kept.
	 */
	const FAILURE_CACHE_SECONDS = 60;

	/**
	 * The capability every page and action of the plugin asks for.
	 */
	const CAPABILITY = 'manage_woocommerce';

	/**
	 * Option holding why payments cannot work now (`token_revoked` or `store_unauthorized`), while so:
	 * the method is then not offered at checkout, so no buyer pays into an order that stays pending.
	 */
	const BLOCKED_OPTION = 'armenian_gateway_payments_blocked';

	/**
	 * WP-Cron hook that checks the connection every hour, admin pages or not.
	 */
	const REFRESH_HOOK = 'armenian_gateway_health_refresh';

	/**
	 * The problems that stop every payment until the shop owner acts.
	 */
	const BLOCKING = array( 'token_revoked', 'store_unauthorized' );

	/**
	 * Hooks the notice and the admin script.
	 */
	public static function register() {
		add_action( 'admin_notices', array( __CLASS__, 'render_notices' ) );
		add_action( 'admin_enqueue_scripts', array( __CLASS__, 'enqueue_admin_script' ) );
	}

	/**
	 * `admin_enqueue_scripts`: assets/js/admin.js on the payment settings and reconciliation screens
	 * (the confirmation of "Remove connection", the reload while a run is running).
	 *
	 * @param string $hook_suffix The screen's hook suffix.
	 */
	public static function enqueue_admin_script( $hook_suffix ) {
		if ( ! in_array( $hook_suffix, array( 'woocommerce_page_wc-settings', 'woocommerce_page_' . Armenian_Gateway_Reconciliation_Page::SLUG ), true ) ) {
			return;
		}
		wp_enqueue_script( 'armenian-gateway-admin', plugins_url( 'assets/js/admin.js', ARMENIAN_GATEWAY_FILE ), array(), ARMENIAN_GATEWAY_VERSION, true );
	}

	/**
	 * Whether the last word about the connection stops every payment (the connect token revoked, or
	 * the store's REST key refused). Read from an option only: the checkout never waits on the
	 * connector for it.
	 *
	 * @return bool
	 */
	public static function payments_blocked() {
		return in_array( get_option( self::BLOCKED_OPTION, '' ), self::BLOCKING, true );
	}

	/**
	 * Notes that payments cannot work now, and why (a payment the connector refused for it).
	 *
	 * @param string $code `token_revoked` or `store_unauthorized`.
	 */
	public static function block_payments( $code ) {
		if ( in_array( $code, self::BLOCKING, true ) ) {
			update_option( self::BLOCKED_OPTION, $code, false );
		}
		self::forget();
	}

	/**
	 * Offers the method again (new settings saved; a health check found nothing blocking).
	 */
	public static function unblock_payments() {
		delete_option( self::BLOCKED_OPTION );
	}

	/**
	 * Schedules the hourly check (once); `plugins_loaded`.
	 */
	public static function schedule_refresh() {
		add_action( self::REFRESH_HOOK, array( __CLASS__, 'refresh' ) );
		if ( function_exists( 'wp_next_scheduled' ) && false === wp_next_scheduled( self::REFRESH_HOOK ) ) {
			wp_schedule_event( time() + HOUR_IN_SECONDS, 'hourly', self::REFRESH_HOOK );
		}
	}

	/**
	 * WP-Cron, hourly: asks the connector about the connection now, so a revoked token or a refused
	 * key hides the method before a buyer tries it, and a repaired one shows it again.
	 */
	public static function refresh() {
		self::forget();
		self::problems();
	}

	/**
	 * Forgets the cached check (settings saved, connection changed).
	 */
	public static function forget() {
		delete_transient( self::TRANSIENT );
		Armenian_Gateway_Connector::forget_unreachable();
	}

	/**
	 * The problems of the connection now (cached): a list of `{code, detail}`.
	 *
	 * @return array
	 */
	public static function problems() {
		$cached = get_transient( self::TRANSIENT );
		if ( is_array( $cached ) && isset( $cached['problems'] ) ) {
			return $cached['problems'];
		}
		$connector = Armenian_Gateway_Connector::from_settings();
		if ( ! $connector->is_configured() ) {
			return array();
		}
		$result   = $connector->page_request( 'GET', '/v1/connection' );
		$problems = self::problems_of( $result );
		Armenian_Gateway_Connection_Actions::revoke_replaced_keys( $result );
		$codes    = array_column( $problems, 'code' );
		$blocking = array_values( array_intersect( self::BLOCKING, $codes ) );
		if ( array() !== $blocking ) {
			update_option( self::BLOCKED_OPTION, $blocking[0], false );
		} elseif ( $result->is_ok() ) {
			self::unblock_payments();
		}
		set_transient( self::TRANSIENT, array( 'problems' => $problems ), $result->is_ok() ? self::CACHE_SECONDS : self::FAILURE_CACHE_SECONDS );
		return $problems;
	}

	/**
	 * The problems one `GET /v1/connection` answer shows.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return array
	 */
	private static function problems_of( Armenian_Gateway_Response $result ) {
		if ( $result->is_error( 'invalid_connect_token' ) ) {
			return array( array( 'code' => 'token_revoked' ) );
		}
		if ( $result->is_error( 'connection_not_found' ) || $result->is_error( 'not_configured' ) ) {
			return array();
		}
		if ( ! $result->is_ok() ) {
			return array(
				array(
					'code'   => 'connector_unreachable',
					'detail' => Armenian_Gateway_Connector::admin_error_message( $result ),
				),
			);
		}
		$connection = $result->body;
		$status     = Armenian_Gateway_Response::text_of( $connection, 'status' );
		$health     = Armenian_Gateway_Response::array_of( $connection, 'health' );
		$problems   = array();
		if ( 'token_revoked' === $status ) {
			$problems[] = array( 'code' => 'token_revoked' );
		}
		if ( 'store_unauthorized' === $status ) {
			$problems[] = array( 'code' => 'store_unauthorized' );
		}
		if ( 'unreachable' === Armenian_Gateway_Response::text_of( $health, 'gateway' ) ) {
			$problems[] = array( 'code' => 'gateway_unreachable' );
		}
		if ( 'unreachable' === Armenian_Gateway_Response::text_of( $health, 'store' ) ) {
			$problems[] = array(
				'code'   => 'store_unreachable',
				'detail' => Armenian_Gateway_Response::text_of( Armenian_Gateway_Response::array_of( $health, 'store_error' ), 'message' ),
			);
		}
		if ( 'stale' === Armenian_Gateway_Response::text_of( $health, 'webhooks' ) ) {
			$problems[] = array(
				'code'   => 'webhooks_stale',
				'detail' => Armenian_Gateway_Response::text_of( $connection, 'last_webhook_at' ),
			);
		}
		return $problems;
	}

	/**
	 * `admin_notices`: one notice per problem, for shop managers, and the result of the last action.
	 */
	public static function render_notices() {
		if ( ! current_user_can( self::CAPABILITY ) || ! self::on_woocommerce_screen() ) {
			return;
		}
		$flash = Armenian_Gateway_Admin_Format::take_flash( 'connection' );
		if ( null !== $flash ) {
			Armenian_Gateway_Admin_Format::notice( (string) $flash['type'], (string) $flash['message'], '', 'is-dismissible' );
		}
		foreach ( self::problems() as $problem ) {
			self::render_problem( $problem );
		}
	}

	/**
	 * True on WooCommerce's own screens (its settings, orders, reports, the plugin's pages) and the
	 * Plugins screen: the notice is about the shop, and other screens never wait for the connector.
	 *
	 * @return bool
	 */
	private static function on_woocommerce_screen() {
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		if ( ! is_object( $screen ) || ! isset( $screen->id ) ) {
			return false;
		}
		$ids = function_exists( 'wc_get_screen_ids' ) ? (array) wc_get_screen_ids() : array();
		return 'plugins' === $screen->id || in_array( $screen->id, $ids, true ) || 0 === strpos( (string) $screen->id, 'woocommerce_page_' );
	}

	/**
	 * One problem, what it means and what to do.
	 *
	 * @param array $problem `{code, detail}`.
	 */
	private static function render_problem( array $problem ) {
		$detail   = isset( $problem['detail'] ) ? (string) $problem['detail'] : '';
		$settings = '<a href="' . esc_url( self::settings_url() ) . '">' . esc_html__( 'Open the payment method settings', 'armenian-payment-gateway' ) . '</a>';
		/* translators: %s: what is wrong and what to do (whole sentences). */
		$prefix = __( 'Armenian Payment Gateway: %s', 'armenian-payment-gateway' );
		switch ( $problem['code'] ) {
			case 'connector_unreachable':
				/* translators: %s: why the connector could not be reached. */
				$message = sprintf( __( '%s Buyers cannot pay with this method until the connector answers. If the connector URL in the settings is right, the connector is down: contact whoever runs it.', 'armenian-payment-gateway' ), $detail );
				Armenian_Gateway_Admin_Format::notice( 'error', sprintf( $prefix, $message ), $settings, 'armenian-gateway-health is-dismissible' );
				return;
			case 'token_revoked':
				Armenian_Gateway_Admin_Format::notice( 'error', sprintf( $prefix, self::token_revoked_message() ), $settings, 'armenian-gateway-health is-dismissible' );
				return;
			case 'store_unauthorized':
				$button = '<a class="button button-primary" href="' . esc_url( Armenian_Gateway_Connection_Actions::reconnect_url() ) . '">' . esc_html__( 'Reconnect', 'armenian-payment-gateway' ) . '</a> ' . $settings;
				Armenian_Gateway_Admin_Format::notice( 'error', sprintf( $prefix, self::store_unauthorized_message() ), $button, 'armenian-gateway-health is-dismissible' );
				return;
			case 'gateway_unreachable':
				Armenian_Gateway_Admin_Format::notice( 'warning', sprintf( $prefix, self::gateway_unreachable_message() ), '', 'armenian-gateway-health is-dismissible' );
				return;
			case 'store_unreachable':
				/* translators: %s: the connector's last error with the store. */
				$message = sprintf( __( 'The connector could not reach your store\'s REST API (%s). Orders are marked paid once it can. Check that the store answers at /wp-json/wc/v3 from the internet and that no security plugin or firewall blocks it.', 'armenian-payment-gateway' ), '' !== $detail ? $detail : __( 'no answer', 'armenian-payment-gateway' ) );
				Armenian_Gateway_Admin_Format::notice( 'warning', sprintf( $prefix, $message ), '', 'armenian-gateway-health is-dismissible' );
				return;
			case 'webhooks_stale':
				$message = sprintf(
					/* translators: %s: when the last notification arrived. */
					__( 'The gateway\'s payment notifications stopped reaching the connector (last one: %s). Orders are still updated, but only when the connector checks the gateway, a few minutes late. Ask whoever runs the connector to check that the gateway can reach its public address.', 'armenian-payment-gateway' ),
					'' !== $detail ? Armenian_Gateway_Admin_Format::datetime( $detail ) : __( 'never', 'armenian-payment-gateway' )
				);
				Armenian_Gateway_Admin_Format::notice( 'warning', sprintf( $prefix, $message ), '', 'armenian-gateway-health is-dismissible' );
				return;
		}
	}

	/**
	 * What a revoked or expired connect token means, and what to do.
	 *
	 * @return string
	 */
	public static function token_revoked_message() {
		return __( 'The gateway no longer accepts this store\'s connect token (it was revoked or has expired), so buyers cannot pay with this method. Get a new connect token for this store, paste it in the payment method settings and save.', 'armenian-payment-gateway' );
	}

	/**
	 * What a refused store key means, and what to do.
	 *
	 * @return string
	 */
	public static function store_unauthorized_message() {
		return __( 'WooCommerce refused the connector\'s REST API key (it was deleted or revoked), so orders are not marked paid and checkout with this method fails. Click "Reconnect" to approve the access again, or paste a REST API key you create yourself in the payment method settings.', 'armenian-payment-gateway' );
	}

	/**
	 * What an unreachable gateway means.
	 *
	 * @return string
	 */
	public static function gateway_unreachable_message() {
		return __( 'The connector cannot reach the payment gateway right now, so new payments may fail. There is nothing to change on your side; if it lasts more than a few minutes, contact the gateway\'s support.', 'armenian-payment-gateway' );
	}

	/**
	 * The plugin's settings page.
	 *
	 * @return string
	 */
	public static function settings_url() {
		return admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Armenian_Gateway::GATEWAY_ID );
	}
}
