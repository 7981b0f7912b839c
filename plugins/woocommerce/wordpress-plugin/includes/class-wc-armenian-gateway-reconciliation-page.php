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
final class WC_Armenian_Gateway_Reconciliation_Page {

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
	 * Seconds between two reloads of the page while a run is running.
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
			WC_Armenian_Gateway_Health::CAPABILITY,
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
		$value = isset( $source[ $name ] ) ? sanitize_text_field( wp_unslash( $source[ $name ] ) ) : '';
		return preg_match( '/^\d{4}-\d{2}-\d{2}$/', $value ) ? $value : $fallback;
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
		if ( ! current_user_can( WC_Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to run the reconciliation.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		list( $default_from, $default_to ) = self::default_range();
		$from                              = self::date_field( $_POST, 'from', $default_from );
		$to                                = self::date_field( $_POST, 'to', $default_to );
		$repair                            = isset( $_POST['repair'] ) && '1' === sanitize_text_field( wp_unslash( $_POST['repair'] ) );
		if ( $from > $to ) {
			list( $from, $to ) = array( $to, $from );
		}

		$result = WC_Armenian_Gateway_Connector::from_settings()->request(
			'POST',
			'/v1/reconciliation',
			array(
				'from'   => self::instant( $from, false ),
				'to'     => self::instant( $to, true ),
				'repair' => $repair,
				'wait'   => false,
			),
			WC_Armenian_Gateway_Connector::ACTION_TIMEOUT
		);
		$args = array(
			'from' => $from,
			'to'   => $to,
		);
		$id   = $result->is_ok() ? $result->field( 'id' ) : '';
		if ( '' !== $id ) {
			$args['run'] = $id;
		} else {
			if ( $result->is_ok() ) {
				$result = WC_Armenian_Gateway_Response::failure( $result->status, WC_Armenian_Gateway_Response::INVALID_RESPONSE, __( 'The connector answered without a run id.', 'armenian-payment-gateway' ) );
			}
			WC_Armenian_Gateway_Connector::log( 'warning', 'Starting a reconciliation failed', $result );
			WC_Armenian_Gateway_Admin_Format::flash(
				'reconciliation',
				array(
					'type'    => 'error',
					/* translators: %s: the connector's error message. */
					'message' => sprintf( __( 'The reconciliation could not be started: %s', 'armenian-payment-gateway' ), WC_Armenian_Gateway_Connector::admin_error_message( $result ) ),
				)
			);
		}
		wp_safe_redirect( self::url( $args ) );
		exit;
	}

	/**
	 * The page.
	 */
	public static function render() {
		if ( ! current_user_can( WC_Armenian_Gateway_Health::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to run the reconciliation.', 'armenian-payment-gateway' ), '', array( 'response' => 403 ) );
		}
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- reading which run and range to show changes nothing.
		list( $default_from, $default_to ) = self::default_range();
		$from                              = self::date_field( $_GET, 'from', $default_from );
		$to                                = self::date_field( $_GET, 'to', $default_to );
		$run_id                            = isset( $_GET['run'] ) ? sanitize_text_field( wp_unslash( $_GET['run'] ) ) : '';
		// phpcs:enable
		$connector = WC_Armenian_Gateway_Connector::from_settings();

		echo '<div class="wrap armenian-gateway-reconciliation">';
		echo '<h1>' . esc_html__( 'Payment reconciliation', 'armenian-payment-gateway' ) . '</h1>';
		echo '<p>' . esc_html__( 'Compares the orders paid with Armenian Payment Gateway with the payments at the gateway, and lists every difference with what will be done about it. Only one kind is repaired for you: an order paid at the gateway but still unpaid in the store is marked paid. Everything else moves money or needs a person, and is only reported.', 'armenian-payment-gateway' ) . '</p>';

		$flash = WC_Armenian_Gateway_Admin_Format::take_flash( 'reconciliation' );
		if ( null !== $flash ) {
			WC_Armenian_Gateway_Admin_Format::notice( (string) $flash['type'], (string) $flash['message'] );
		}
		if ( ! $connector->is_configured() ) {
			WC_Armenian_Gateway_Admin_Format::notice( 'info', __( 'Paste your connect token and the connector URL in the payment method settings first.', 'armenian-payment-gateway' ) );
			echo '</div>';
			return;
		}

		self::render_form( $from, $to, false, __( 'Check for mismatches', 'armenian-payment-gateway' ), 'button-primary' );

		if ( '' !== $run_id ) {
			$result = $connector->page_request( 'GET', '/v1/reconciliation/' . rawurlencode( $run_id ) );
			if ( $result->is_ok() ) {
				echo '<div class="armenian-gateway-this-run"><h2>' . esc_html__( 'This run', 'armenian-payment-gateway' ) . '</h2>';
				self::render_run( $result->body, true );
				echo '</div>';
			} else {
				/* translators: %s: the connector's error message. */
				WC_Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The run could not be read: %s', 'armenian-payment-gateway' ), WC_Armenian_Gateway_Connector::admin_error_message( $result ) ) );
			}
		}

		echo '<h2>' . esc_html__( 'Last automatic run', 'armenian-payment-gateway' ) . '</h2>';
		$result = $connector->page_request( 'GET', '/v1/reconciliation?trigger=scheduled&limit=1' );
		if ( ! $result->is_ok() ) {
			/* translators: %s: the connector's error message. */
			WC_Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The last automatic run could not be read: %s', 'armenian-payment-gateway' ), WC_Armenian_Gateway_Connector::admin_error_message( $result ) ) );
		} else {
			$runs = isset( $result->body['data'] ) && is_array( $result->body['data'] ) ? $result->body['data'] : array();
			$last = isset( $runs[0] ) && is_array( $runs[0] ) ? $runs[0] : null;
			if ( null === $last ) {
				echo '<p class="armenian-gateway-no-scheduled-run">' . esc_html__( 'The connector has not run an automatic reconciliation for this store yet (it runs once an hour over the last day, and repairs the safe findings).', 'armenian-payment-gateway' ) . '</p>';
			} else {
				echo '<div class="armenian-gateway-scheduled-run">';
				self::render_run( $last, false );
				echo '</div>';
			}
		}
		echo '</div>';
	}

	/**
	 * The date range form; it posts to admin-post.php.
	 *
	 * @param string $from   Y-m-d.
	 * @param string $to     Y-m-d.
	 * @param bool   $repair Send `repair: true`.
	 * @param string $label  The button's label.
	 * @param string $class  The button's class.
	 */
	private static function render_form( $from, $to, $repair, $label, $class ) {
		echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '" class="armenian-gateway-reconcile-form' . ( $repair ? ' armenian-gateway-repair-form' : '' ) . '">';
		echo '<input type="hidden" name="action" value="' . esc_attr( self::RUN_ACTION ) . '" />';
		wp_nonce_field( self::RUN_ACTION );
		if ( $repair ) {
			echo '<input type="hidden" name="repair" value="1" />';
			echo '<input type="hidden" name="from" value="' . esc_attr( $from ) . '" />';
			echo '<input type="hidden" name="to" value="' . esc_attr( $to ) . '" />';
		} else {
			echo '<label for="armenian-gateway-from">' . esc_html__( 'From', 'armenian-payment-gateway' ) . '</label> ';
			echo '<input type="date" id="armenian-gateway-from" name="from" value="' . esc_attr( $from ) . '" required /> ';
			echo '<label for="armenian-gateway-to">' . esc_html__( 'To', 'armenian-payment-gateway' ) . '</label> ';
			echo '<input type="date" id="armenian-gateway-to" name="to" value="' . esc_attr( $to ) . '" required /> ';
		}
		echo '<button type="submit" class="button ' . esc_attr( $class ) . '">' . esc_html( $label ) . '</button>';
		echo '</form>';
	}

	/**
	 * One run: its state, its findings, and the repair button when there is something to repair.
	 *
	 * @param array $run        The connector's run object.
	 * @param bool  $actionable Offer the repair (and refresh while running).
	 */
	private static function render_run( array $run, $actionable ) {
		$status = isset( $run['status'] ) ? (string) $run['status'] : 'finished';
		$from   = isset( $run['from'] ) ? (string) $run['from'] : '';
		$to     = isset( $run['to'] ) ? (string) $run['to'] : '';
		echo '<div class="armenian-gateway-run" data-status="' . esc_attr( $status ) . '">';
		echo '<p>' . esc_html(
			sprintf(
				/* translators: 1: start of the range, 2: end of the range, 3: when the run started. */
				__( 'Orders created from %1$s to %2$s, checked at %3$s.', 'armenian-payment-gateway' ),
				WC_Armenian_Gateway_Admin_Format::datetime( $from ),
				WC_Armenian_Gateway_Admin_Format::datetime( $to ),
				WC_Armenian_Gateway_Admin_Format::datetime( isset( $run['started_at'] ) ? $run['started_at'] : null )
			)
		) . '</p>';

		if ( 'running' === $status ) {
			if ( $actionable ) {
				echo '<meta http-equiv="refresh" content="' . esc_attr( (string) self::REFRESH_SECONDS ) . '" />';
			}
			WC_Armenian_Gateway_Admin_Format::notice( 'info', __( 'Running: the connector is comparing the orders with the gateway. This page reloads by itself until it is done.', 'armenian-payment-gateway' ), '', 'inline armenian-gateway-running' );
			echo '</div>';
			return;
		}
		if ( 'failed' === $status ) {
			/* translators: %s: what could not be reached. */
			WC_Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The run failed: %s Try again in a few minutes.', 'armenian-payment-gateway' ), WC_Armenian_Gateway_Admin_Format::text( isset( $run['error'] ) ? $run['error'] : null ) ), '', 'inline armenian-gateway-failed' );
			echo '</div>';
			return;
		}

		$findings = isset( $run['findings'] ) && is_array( $run['findings'] ) ? $run['findings'] : array();
		$checked  = isset( $run['orders_checked'] ) ? (int) $run['orders_checked'] : 0;
		if ( empty( $findings ) ) {
			/* translators: %d: number of orders. */
			WC_Armenian_Gateway_Admin_Format::notice( 'success', sprintf( _n( '%d order checked: everything matches.', '%d orders checked: everything matches.', $checked, 'armenian-payment-gateway' ), $checked ), '', 'inline armenian-gateway-clean' );
			echo '</div>';
			return;
		}

		/* translators: 1: number of orders, 2: number of findings. */
		echo '<p>' . esc_html( sprintf( _n( '%1$d orders checked, %2$d mismatch:', '%1$d orders checked, %2$d mismatches:', count( $findings ), 'armenian-payment-gateway' ), $checked, count( $findings ) ) ) . '</p>';
		echo '<table class="widefat striped armenian-gateway-findings"><thead><tr>';
		foreach ( array( __( 'Mismatch', 'armenian-payment-gateway' ), __( 'Order', 'armenian-payment-gateway' ), __( 'Payment', 'armenian-payment-gateway' ), __( 'Detail', 'armenian-payment-gateway' ), __( 'What will be done', 'armenian-payment-gateway' ) ) as $heading ) {
			echo '<th scope="col">' . esc_html( $heading ) . '</th>';
		}
		echo '</tr></thead><tbody>';
		$repairable = 0;
		foreach ( $findings as $finding ) {
			$repaired = isset( $finding['action'] ) && 'repaired' === $finding['action'];
			if ( ! empty( $finding['repairable'] ) && ! $repaired ) {
				++$repairable;
			}
			self::render_finding( $finding, $repaired );
		}
		echo '</tbody></table>';

		if ( $actionable && $repairable > 0 && 'finished' === $status ) {
			echo '<p>' . esc_html(
				sprintf(
					/* translators: %d: number of findings. */
					_n( '%d mismatch can be repaired safely: the order is marked paid, as the gateway confirmed. The others are left for you.', '%d mismatches can be repaired safely: the orders are marked paid, as the gateway confirmed. The others are left for you.', $repairable, 'armenian-payment-gateway' ),
					$repairable
				)
			) . '</p>';
			self::render_form( substr( $from, 0, 10 ), substr( $to, 0, 10 ), true, __( 'Repair the safe ones', 'armenian-payment-gateway' ), 'button-primary' );
		}
		echo '</div>';
	}

	/**
	 * One finding's row.
	 *
	 * @param array $finding  The connector's finding.
	 * @param bool  $repaired This run repaired it.
	 */
	private static function render_finding( array $finding, $repaired ) {
		$order_id = isset( $finding['store_order_id'] ) ? (string) $finding['store_order_id'] : '';
		$number   = isset( $finding['order_number'] ) && '' !== (string) $finding['order_number'] ? (string) $finding['order_number'] : $order_id;
		$order    = '' !== $order_id && function_exists( 'wc_get_order' ) ? wc_get_order( (int) $order_id ) : false;
		$advice   = isset( $finding['advice'] ) ? (string) $finding['advice'] : '';
		if ( $repaired ) {
			$advice = __( 'Repaired: the order was marked paid.', 'armenian-payment-gateway' );
		}
		echo '<tr class="armenian-gateway-finding" data-kind="' . esc_attr( isset( $finding['kind'] ) ? (string) $finding['kind'] : '' ) . '">';
		echo '<td>' . esc_html( WC_Armenian_Gateway_Admin_Format::finding_kind( isset( $finding['kind'] ) ? (string) $finding['kind'] : '' ) ) . '</td>';
		if ( $order ) {
			echo '<td><a href="' . esc_url( $order->get_edit_order_url() ) . '">#' . esc_html( $number ) . '</a></td>';
		} else {
			echo '<td>#' . esc_html( $number ) . '</td>';
		}
		echo '<td><code>' . esc_html( WC_Armenian_Gateway_Admin_Format::text( isset( $finding['payment_uuid'] ) ? $finding['payment_uuid'] : null ) ) . '</code></td>';
		echo '<td>' . esc_html( WC_Armenian_Gateway_Admin_Format::text( isset( $finding['detail'] ) ? $finding['detail'] : null ) ) . '</td>';
		echo '<td>' . esc_html( WC_Armenian_Gateway_Admin_Format::text( $advice ) ) . '</td>';
		echo '</tr>';
	}
}
