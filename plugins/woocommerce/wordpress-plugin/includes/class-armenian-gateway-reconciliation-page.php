<?php
/**
 * WooCommerce > Payment reconciliation: the connector's reconciliation, run from the admin.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Runs the connector's reconciliation over a date range (`POST /v1/reconciliation` with
 * `wait: false`), shows the run until it finishes (`GET /v1/reconciliation/{id}`), repairs the safe
 * findings on request (`repair: true`), and shows the last automatic run
 * (`GET /v1/reconciliation?trigger=scheduled&limit=1`).
 */
final class Armenian_Gateway_Reconciliation_Page {

	/**
	 * The page slug (`admin.php?page=...`).
	 */
	const SLUG = 'armenian-gateway-reconciliation';

	/**
	 * The admin-post action that starts a run.
	 */
	const RUN_ACTION = 'armenian_gateway_reconcile';

	/**
	 * Days the range covers by default.
	 */
	const DEFAULT_DAYS = 7;

	/**
	 * Seconds between two reloads of the page while a run is running (assets/js/admin.js reloads it).
	 */
	const REFRESH_SECONDS = 3;

	/**
	 * Hooks the page and the action.
	 */
	public static function register() {
		add_action( 'admin_menu', array( __CLASS__, 'add_page' ), 60 );
		add_action( 'admin_post_' . self::RUN_ACTION, array( __CLASS__, 'run' ) );
	}

	/**
	 * `admin_menu`: the page under WooCommerce.
	 */
	public static function add_page() {
		add_submenu_page(
			'woocommerce',
			__( 'Payment reconciliation', 'armenian-payment-gateway' ),
			__( 'Payment reconciliation', 'armenian-payment-gateway' ),
			Armenian_Gateway_Health::CAPABILITY,
			self::SLUG,
			array( __CLASS__, 'render' )
		);
	}

	/**
	 * The page's URL.
	 *
	 * @param array $args More query arguments.
	 * @return string
	 */
	public static function url( array $args = array() ) {
		return add_query_arg( array_merge( array( 'page' => self::SLUG ), $args ), admin_url( 'admin.php' ) );
	}

	/**
	 * A `Y-m-d` date from the request, or the fallback.
	 *
	 * @param array  $source   $_GET or $_POST.
	 * @param string $name     Field name.
	 * @param string $fallback Y-m-d.
	 * @return string
	 */
	private static function date_field( array $source, $name, $fallback ) {
		$value = isset( $source[ $name ] ) && is_string( $source[ $name ] ) ? sanitize_text_field( wp_unslash( $source[ $name ] ) ) : '';
		return self::is_date( $value ) ? $value : $fallback;
	}

	/**
	 * True for a `Y-m-d` date that exists (2026-02-29 and 2026-13-45 do not).
	 *
	 * @param string $value The value.
	 * @return bool
	 */
	private static function is_date( $value ) {
		return 1 === preg_match( '/^(\d{4})-(\d{2})-(\d{2})$/', (string) $value, $m ) && checkdate( (int) $m[2], (int) $m[3], (int) $m[1] );
	}

	/**
	 * True for a reconciliation run id as the connector makes them (a UUID; letters, digits, `-`
	 * and `_`, at most 64): anything else never reaches the connector's path.
	 *
	 * @param mixed $id The value.
	 * @return bool
	 */
	public static function is_run_id( $id ) {
		return is_string( $id ) && 1 === preg_match( '/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/', $id );
	}

	/**
	 * True for the ISO 8601 UTC instant the connector answers (`2026-11-23T20:00:00Z`, with or
	 * without fractions), on a date that exists.
	 *
	 * @param mixed $value The value.
	 * @return bool
	 */
	private static function is_instant( $value ) {
		return is_string( $value )
			&& 1 === preg_match( '/^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?Z$/', $value, $m )
			&& checkdate( (int) $m[2], (int) $m[3], (int) $m[1] );
	}

	/**
	 * The default range: the last seven days, today included, in the site's time zone.
	 *
	 * @return string[] `[from, to]` as Y-m-d.
	 */
	private static function default_range() {
		$today = new DateTimeImmutable( 'now', wp_timezone() );
		return array( $today->modify( '-' . self::DEFAULT_DAYS . ' days' )->format( 'Y-m-d' ), $today->format( 'Y-m-d' ) );
	}

	/**
	 * A day of the site's time zone as the ISO 8601 instant the connector takes.
	 *
	 * @param string $day     Y-m-d.
	 * @param bool   $day_end The end of the day rather than its start.
	 * @return string
	 */
	private static function instant( $day, $day_end ) {
		$time = new DateTimeImmutable( $day . ( $day_end ? ' 23:59:59' : ' 00:00:00' ), wp_timezone() );
		return $time->setTimezone( new DateTimeZone( 'UTC' ) )->format( 'Y-m-d\TH:i:s\Z' );
	}

	/**
	 * Starts a run (admin-post): `POST /v1/reconciliation` with `wait: false`, then back to the page
	 * showing it.
	 */
	public static function run() {
		check_admin_referer( self::RUN_ACTION );
		if ( ! current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to run the reconciliation.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		list( $default_from, $default_to ) = self::default_range();
		$from                              = self::date_field( $_POST, 'from', $default_from );
		$to                                = self::date_field( $_POST, 'to', $default_to );
		$repair_run                        = isset( $_POST['repair_run'] ) && is_string( $_POST['repair_run'] ) ? sanitize_text_field( wp_unslash( $_POST['repair_run'] ) ) : '';
		if ( $from > $to ) {
			list( $from, $to ) = array( $to, $from );
		}
		$connector = Armenian_Gateway_Connector::from_settings();
		Armenian_Gateway_Connector::limit_to( Armenian_Gateway_Connector::ACTION_TIMEOUT );

		if ( '' !== $repair_run ) {
			// Repairs exactly what that run checked: its own UTC instants, not days read again in the site's time zone.
			$result = self::repair_body( $connector, $repair_run );
			$body   = $result->is_ok() ? $result->body : null;
		} else {
			$body   = array(
				'from'   => self::instant( $from, false ),
				'to'     => self::instant( $to, true ),
				'repair' => false,
				'wait'   => false,
			);
			$result = null;
		}
		if ( null !== $body ) {
			$result = $connector->request( 'POST', '/v1/reconciliation', $body, Armenian_Gateway_Connector::ACTION_TIMEOUT );
		}
		$args = array(
			'from' => $from,
			'to'   => $to,
		);
		$id   = $result->is_ok() ? $result->field( 'id' ) : '';
		if ( self::is_run_id( $id ) ) {
			$args['run'] = $id;
		} else {
			if ( $result->is_ok() ) {
				$result = Armenian_Gateway_Response::failure( $result->status, Armenian_Gateway_Response::INVALID_RESPONSE, __( 'The connector answered without a valid run id.', 'armenian-payment-gateway' ) );
			}
			Armenian_Gateway_Connector::log( 'warning', 'Starting a reconciliation failed', $result );
			Armenian_Gateway_Admin_Format::flash(
				'reconciliation',
				array(
					'type'    => 'error',
					/* translators: %s: the connector's error message. */
					'message' => sprintf( __( 'The reconciliation could not be started: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ),
				)
			);
		}
		wp_safe_redirect( self::url( $args ) );
		exit;
	}

	/**
	 * The body of the repair of run `$id`: `repair: true` over that run's exact `from` and `to`
	 * (read back from the connector), or why it cannot be made.
	 *
	 * @param Armenian_Gateway_Connector $connector The client.
	 * @param string                     $id        The run id.
	 * @return Armenian_Gateway_Response The body to post (as a success), or a failure.
	 */
	private static function repair_body( Armenian_Gateway_Connector $connector, $id ) {
		if ( ! self::is_run_id( $id ) ) {
			return Armenian_Gateway_Response::failure( 0, 'invalid_run', __( 'That is not a reconciliation run of this store.', 'armenian-payment-gateway' ) );
		}
		$run = $connector->request( 'GET', '/v1/reconciliation/' . $id, null, Armenian_Gateway_Connector::ACTION_TIMEOUT );
		if ( ! $run->is_ok() ) {
			return $run;
		}
		$from = isset( $run->body['from'] ) ? $run->body['from'] : null;
		$to   = isset( $run->body['to'] ) ? $run->body['to'] : null;
		if ( ! self::is_instant( $from ) || ! self::is_instant( $to ) ) {
			return Armenian_Gateway_Response::failure( $run->status, Armenian_Gateway_Response::INVALID_RESPONSE, __( 'The connector answered a run without its range.', 'armenian-payment-gateway' ) );
		}
		return Armenian_Gateway_Response::success(
			200,
			array(
				'from'   => $from,
				'to'     => $to,
				'repair' => true,
				'wait'   => false,
			)
		);
	}

	/**
	 * The page.
	 */
	public static function render() {
		if ( ! current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to run the reconciliation.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- reading which run and range to show changes nothing.
		list( $default_from, $default_to ) = self::default_range();
		$from                              = self::date_field( $_GET, 'from', $default_from );
		$to                                = self::date_field( $_GET, 'to', $default_to );
		$run_id                            = isset( $_GET['run'] ) && is_string( $_GET['run'] ) ? sanitize_text_field( wp_unslash( $_GET['run'] ) ) : '';
		// phpcs:enable
		$connector = Armenian_Gateway_Connector::from_settings();

		echo '<div class="wrap armenian-gateway-reconciliation">';
		echo '<h1>' . esc_html__( 'Payment reconciliation', 'armenian-payment-gateway' ) . '</h1>';
		echo '<p>' . esc_html__( 'Compares the orders paid with Armenian Payment Gateway with the payments at the gateway, and lists every difference with what will be done about it. Only one kind is repaired for you: an order paid at the gateway but still unpaid in the store is marked paid. Everything else moves money or needs a person, and is only reported.', 'armenian-payment-gateway' ) . '</p>';

		$flash = Armenian_Gateway_Admin_Format::take_flash( 'reconciliation' );
		if ( null !== $flash ) {
			Armenian_Gateway_Admin_Format::notice( (string) $flash['type'], (string) $flash['message'] );
		}
		if ( ! $connector->is_configured() ) {
			Armenian_Gateway_Admin_Format::notice( 'info', __( 'Paste your connect token and the connector URL in the payment method settings first.', 'armenian-payment-gateway' ) );
			echo '</div>';
			return;
		}

		Armenian_Gateway_Reconciliation_View::form( $from, $to, '', __( 'Check for mismatches', 'armenian-payment-gateway' ), 'button-primary' );

		if ( '' !== $run_id && ! self::is_run_id( $run_id ) ) {
			Armenian_Gateway_Admin_Format::notice( 'error', __( 'That is not a reconciliation run of this store.', 'armenian-payment-gateway' ) );
		} elseif ( '' !== $run_id ) {
			$result = $connector->page_request( 'GET', '/v1/reconciliation/' . $run_id );
			if ( $result->is_ok() ) {
				echo '<div class="armenian-gateway-this-run"><h2>' . esc_html__( 'This run', 'armenian-payment-gateway' ) . '</h2>';
				Armenian_Gateway_Reconciliation_View::run( $result->body, true, $from, $to );
				echo '</div>';
			} else {
				/* translators: %s: the connector's error message. */
				Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The run could not be read: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ) );
			}
		}

		echo '<h2>' . esc_html__( 'Last automatic run', 'armenian-payment-gateway' ) . '</h2>';
		$result = $connector->page_request( 'GET', '/v1/reconciliation?trigger=scheduled&limit=1' );
		if ( ! $result->is_ok() ) {
			/* translators: %s: the connector's error message. */
			Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The last automatic run could not be read: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ) );
		} else {
			$runs = Armenian_Gateway_Response::array_of( $result->body, 'data' );
			$last = isset( $runs[0] ) && is_array( $runs[0] ) ? $runs[0] : null;
			if ( null === $last ) {
				echo '<p class="armenian-gateway-no-scheduled-run">' . esc_html__( 'The connector has not run an automatic reconciliation for this store yet (it runs once an hour over the last day, and repairs the safe findings).', 'armenian-payment-gateway' ) . '</p>';
			} else {
				echo '<div class="armenian-gateway-scheduled-run">';
				Armenian_Gateway_Reconciliation_View::run( $last, false, $from, $to );
				echo '</div>';
			}
		}
		echo '</div>';
	}
}
