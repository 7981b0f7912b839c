<?php
/**
 * What the reconciliation page (class-armenian-gateway-reconciliation-page.php) prints: the form
 * that starts a run, and a run's report with its findings and the repair button.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The reconciliation page's markup.
 */
final class Armenian_Gateway_Reconciliation_View {

	/**
	 * The date range form; it posts to admin-post.php.
	 *
	 * @param string $from   Y-m-d.
	 * @param string $to     Y-m-d.
	 * @param string $repair The run whose safe findings to repair, or '' for a new check.
	 * @param string $label  The button's label.
	 * @param string $class  The button's class.
	 */
	public static function form( $from, $to, $repair, $label, $class ) {
		echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '" class="armenian-gateway-reconcile-form' . ( '' !== $repair ? ' armenian-gateway-repair-form' : '' ) . '">';
		echo '<input type="hidden" name="action" value="' . esc_attr( Armenian_Gateway_Reconciliation_Page::RUN_ACTION ) . '" />';
		wp_nonce_field( Armenian_Gateway_Reconciliation_Page::RUN_ACTION );
		if ( '' !== $repair ) {
			echo '<input type="hidden" name="repair_run" value="' . esc_attr( $repair ) . '" />';
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
	 * Every field is read as untrusted (a bad one shows as a dash, never a warning).
	 *
	 * @param array  $run        The connector's run object.
	 * @param bool   $actionable Offer the repair (and reload while running).
	 * @param string $from       The form's first day (Y-m-d), kept on the page after the repair.
	 * @param string $to         The form's last day (Y-m-d).
	 */
	public static function run( array $run, $actionable, $from, $to ) {
		$status = Armenian_Gateway_Response::text_of( $run, 'status', 'finished' );
		echo '<div class="armenian-gateway-run" data-status="' . esc_attr( $status ) . '">';
		echo '<p>' . esc_html(
			sprintf(
				/* translators: 1: start of the range, 2: end of the range, 3: when the run started. */
				__( 'Orders created from %1$s to %2$s, checked at %3$s.', 'armenian-payment-gateway' ),
				Armenian_Gateway_Admin_Format::datetime( Armenian_Gateway_Response::text_of( $run, 'from' ) ),
				Armenian_Gateway_Admin_Format::datetime( Armenian_Gateway_Response::text_of( $run, 'to' ) ),
				Armenian_Gateway_Admin_Format::datetime( Armenian_Gateway_Response::text_of( $run, 'started_at' ) )
			)
		) . '</p>';

		if ( 'running' === $status ) {
			$extra = $actionable ? ' data-armenian-gateway-reload="' . esc_attr( (string) Armenian_Gateway_Reconciliation_Page::REFRESH_SECONDS ) . '"' : '';
			echo '<div class="notice notice-info inline armenian-gateway-running"' . $extra . '><p>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- $extra is built from esc_attr().
			echo esc_html__( 'Running: the connector is comparing the orders with the gateway. This page reloads by itself until it is done.', 'armenian-payment-gateway' );
			echo '</p></div></div>';
			return;
		}
		if ( 'failed' === $status ) {
			/* translators: %s: what could not be reached. */
			Armenian_Gateway_Admin_Format::notice( 'error', sprintf( __( 'The run failed: %s Try again in a few minutes.', 'armenian-payment-gateway' ), Armenian_Gateway_Admin_Format::text( Armenian_Gateway_Response::text_of( $run, 'error' ) ) ), '', 'inline armenian-gateway-failed' );
			echo '</div>';
			return;
		}

		$findings = Armenian_Gateway_Response::objects_of( $run, 'findings' );
		$checked  = max( 0, (int) Armenian_Gateway_Response::text_of( $run, 'orders_checked', '0' ) );
		/* translators: %d: number of orders. */
		$checked_text = sprintf( _n( '%d order checked.', '%d orders checked.', $checked, 'armenian-payment-gateway' ), $checked );
		if ( empty( $findings ) ) {
			Armenian_Gateway_Admin_Format::notice( 'success', $checked_text . ' ' . __( 'Everything matches.', 'armenian-payment-gateway' ), '', 'inline armenian-gateway-clean' );
			echo '</div>';
			return;
		}

		$count = count( $findings );
		/* translators: %d: number of mismatches. */
		echo '<p>' . esc_html( $checked_text . ' ' . sprintf( _n( '%d mismatch:', '%d mismatches:', $count, 'armenian-payment-gateway' ), $count ) ) . '</p>';
		echo '<table class="widefat striped armenian-gateway-findings"><thead><tr>';
		foreach ( array( __( 'Mismatch', 'armenian-payment-gateway' ), __( 'Order', 'armenian-payment-gateway' ), __( 'Payment', 'armenian-payment-gateway' ), __( 'Detail', 'armenian-payment-gateway' ), __( 'What will be done', 'armenian-payment-gateway' ) ) as $heading ) {
			echo '<th scope="col">' . esc_html( $heading ) . '</th>';
		}
		echo '</tr></thead><tbody>';
		$repairable = 0;
		foreach ( $findings as $finding ) {
			$repaired = 'repaired' === Armenian_Gateway_Response::text_of( $finding, 'action' );
			if ( isset( $finding['repairable'] ) && true === $finding['repairable'] && ! $repaired ) {
				++$repairable;
			}
			self::finding( $finding, $repaired );
		}
		echo '</tbody></table>';

		$run_id = Armenian_Gateway_Response::text_of( $run, 'id' );
		if ( $actionable && $repairable > 0 && 'finished' === $status && Armenian_Gateway_Reconciliation_Page::is_run_id( $run_id ) ) {
			echo '<p>' . esc_html(
				sprintf(
					/* translators: %d: number of findings. */
					_n( '%d mismatch can be repaired safely: the order is marked paid, as the gateway confirmed. The others are left for you.', '%d mismatches can be repaired safely: the orders are marked paid, as the gateway confirmed. The others are left for you.', $repairable, 'armenian-payment-gateway' ),
					$repairable
				)
			) . '</p>';
			self::form( $from, $to, $run_id, __( 'Repair the safe ones', 'armenian-payment-gateway' ), 'button-primary' );
		}
		echo '</div>';
	}

	/**
	 * One finding's row.
	 *
	 * @param array $finding  The connector's finding.
	 * @param bool  $repaired This run repaired it.
	 */
	private static function finding( array $finding, $repaired ) {
		$order_id = Armenian_Gateway_Response::text_of( $finding, 'store_order_id' );
		$number   = Armenian_Gateway_Response::text_of( $finding, 'order_number', $order_id );
		$order    = '' !== $order_id && function_exists( 'wc_get_order' ) ? wc_get_order( (int) $order_id ) : false;
		$advice   = Armenian_Gateway_Response::text_of( $finding, 'advice' );
		if ( $repaired ) {
			$advice = __( 'Repaired: the order was marked paid.', 'armenian-payment-gateway' );
		}
		$kind     = Armenian_Gateway_Response::text_of( $finding, 'kind' );
		echo '<tr class="armenian-gateway-finding" data-kind="' . esc_attr( $kind ) . '">';
		echo '<td>' . esc_html( Armenian_Gateway_Admin_Format::finding_kind( $kind ) ) . '</td>';
		if ( $order ) {
			echo '<td><a href="' . esc_url( $order->get_edit_order_url() ) . '">#' . esc_html( $number ) . '</a></td>';
		} else {
			echo '<td>#' . esc_html( $number ) . '</td>';
		}
		echo '<td><code>' . esc_html( Armenian_Gateway_Admin_Format::text( isset( $finding['payment_uuid'] ) ? $finding['payment_uuid'] : null ) ) . '</code></td>';
		echo '<td>' . esc_html( Armenian_Gateway_Admin_Format::text( isset( $finding['detail'] ) ? $finding['detail'] : null ) ) . '</td>';
		echo '<td>' . esc_html( Armenian_Gateway_Admin_Format::text( $advice ) ) . '</td>';
		echo '</tr>';
	}
}
