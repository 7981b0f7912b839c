<?php
/**
 * How the admin pages say the connector's values in words.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Words for the connector's codes (finding kinds, flags, store sync states), dates in the site's
 * format, and amounts.
 */
final class Armenian_Gateway_Admin_Format {

	/**
	 * An ISO 8601 instant in the site's date and time format, or a dash.
	 *
	 * @param mixed $iso The connector's ISO 8601 value, or null.
	 * @return string
	 */
	public static function datetime( $iso ) {
		if ( ! is_string( $iso ) || '' === $iso ) {
			return '—';
		}
		$timestamp = strtotime( $iso );
		if ( false === $timestamp ) {
			return $iso;
		}
		$format = trim( get_option( 'date_format', 'Y-m-d' ) . ' ' . get_option( 'time_format', 'H:i' ) );
		return (string) wp_date( $format, $timestamp );
	}

	/**
	 * An amount with its currency (AMD amounts are whole).
	 *
	 * @param mixed  $amount   The amount.
	 * @param string $currency The currency code.
	 * @return string
	 */
	public static function amount( $amount, $currency = 'AMD' ) {
		if ( ! is_numeric( $amount ) ) {
			return '—';
		}
		return number_format_i18n( (float) $amount ) . ' ' . $currency;
	}

	/**
	 * A value, or a dash when there is none.
	 *
	 * @param mixed $value A scalar from the connector.
	 * @return string
	 */
	public static function text( $value ) {
		return is_scalar( $value ) && '' !== (string) $value ? (string) $value : '—';
	}

	/**
	 * A reconciliation finding's kind in words.
	 *
	 * @param string $kind The connector's kind.
	 * @return string
	 */
	public static function finding_kind( $kind ) {
		$kinds = array(
			'paid_at_gateway_unpaid_in_store' => __( 'Paid at the gateway, unpaid in the store', 'armenian-payment-gateway' ),
			'paid_in_store_not_at_gateway'    => __( 'Paid in the store, not at the gateway', 'armenian-payment-gateway' ),
			'paid_twice'                      => __( 'Paid twice', 'armenian-payment-gateway' ),
			'refund_mismatch'                 => __( 'Refunded in one place only', 'armenian-payment-gateway' ),
			'amount_mismatch'                 => __( 'Amounts differ', 'armenian-payment-gateway' ),
			'paid_after_cancel'               => __( 'Paid after it was cancelled', 'armenian-payment-gateway' ),
			'awaiting_processor_reference'    => __( 'Not confirmed by the payment system', 'armenian-payment-gateway' ),
		);
		return isset( $kinds[ $kind ] ) ? $kinds[ $kind ] : (string) $kind;
	}

	/**
	 * An order flag in words: what is wrong and what to do.
	 *
	 * @param string $flag The connector's flag.
	 * @return string
	 */
	public static function flag( $flag ) {
		$flags = array(
			'amount_mismatch'   => __( 'The amount paid differs from the order total: compare them, then refund or ask the buyer for the difference.', 'armenian-payment-gateway' ),
			'paid_twice'        => __( 'The order was paid twice: refund one of the payments.', 'armenian-payment-gateway' ),
			'store_sync_failed' => __( 'The connector could not mark the order paid in the store; it keeps trying. Check the connection on the payment method settings page.', 'armenian-payment-gateway' ),
			'paid_after_cancel' => __( 'The buyer paid after this order was cancelled: refund the payment, or set the order back to Pending payment to keep the sale (it is then marked paid).', 'armenian-payment-gateway' ),
			'refund_failed'     => __( 'A refund did not go through and no money was returned: correct the order, then refund again if you wish.', 'armenian-payment-gateway' ),
		);
		return isset( $flags[ $flag ] ) ? $flags[ $flag ] : (string) $flag;
	}

	/**
	 * The store sync state in words.
	 *
	 * @param string $state none, pending, done or failed.
	 * @return string
	 */
	public static function store_sync( $state ) {
		$states = array(
			'none'    => __( 'nothing to update', 'armenian-payment-gateway' ),
			'pending' => __( 'being marked paid', 'armenian-payment-gateway' ),
			'done'    => __( 'marked paid', 'armenian-payment-gateway' ),
			'failed'  => __( 'failed, retrying', 'armenian-payment-gateway' ),
		);
		return isset( $states[ $state ] ) ? $states[ $state ] : self::text( $state );
	}

	/**
	 * An admin notice.
	 *
	 * @param string $type    info, success, warning or error.
	 * @param string $message Plain text.
	 * @param string $extra   Markup already escaped (buttons), shown under the message.
	 * @param string $classes More classes (`inline`).
	 */
	public static function notice( $type, $message, $extra = '', $classes = '' ) {
		echo '<div class="notice notice-' . esc_attr( $type ) . ( '' !== $classes ? ' ' . esc_attr( $classes ) : '' ) . '"><p>' . esc_html( $message ) . '</p>';
		if ( '' !== $extra ) {
			echo '<p>' . $extra . '</p>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built from escaped parts by the caller.
		}
		echo '</div>';
	}

	/**
	 * A one-time message for the current user, shown on the next page (after an admin-post redirect).
	 *
	 * @param string $key     What the message is about.
	 * @param array  $message `{type, message}`.
	 */
	public static function flash( $key, array $message ) {
		set_transient( 'armenian_gateway_' . $key . '_' . get_current_user_id(), $message, 5 * MINUTE_IN_SECONDS );
	}

	/**
	 * Takes the current user's one-time message, or null.
	 *
	 * @param string $key What the message is about.
	 * @return array|null `{type, message}`.
	 */
	public static function take_flash( $key ) {
		$name    = 'armenian_gateway_' . $key . '_' . get_current_user_id();
		$message = get_transient( $name );
		if ( ! is_array( $message ) ) {
			return null;
		}
		delete_transient( $name );
		return $message;
	}
}
