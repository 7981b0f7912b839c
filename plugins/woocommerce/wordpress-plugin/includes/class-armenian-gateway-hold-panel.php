<?php
/**
 * The card hold in the order panel: how much is held and until when, its state, and the Capture
 * button (a smaller amount may be entered).
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Draws the `hold` of the connector's `GET /v1/orders/{id}/payment` answer. The button submits the
 * order edit form to admin-post.php (a form cannot sit inside the order's own form), where
 * Armenian_Gateway_Holds::capture_from_panel() reads only its amount field.
 */
final class Armenian_Gateway_Hold_Panel {

	/**
	 * The hold's part of the panel; nothing when the order has no card hold.
	 *
	 * @param WC_Order $order   The order.
	 * @param array    $payment The connector's answer.
	 */
	public static function render( $order, array $payment ) {
		$hold = Armenian_Gateway_Response::array_of( $payment, 'hold' );
		if ( empty( $hold ) ) {
			return;
		}
		$currency = Armenian_Gateway_Response::text_of( $payment, 'currency', 'AMD' );
		$state    = Armenian_Gateway_Response::text_of( $hold, 'state' );
		$held     = Armenian_Gateway_Response::text_of( $hold, 'authorized_amount' );
		$rows     = array(
			__( 'Card hold', 'armenian-payment-gateway' )      => Armenian_Gateway_Admin_Format::amount( $held, $currency ),
			__( 'Capture before', 'armenian-payment-gateway' ) => Armenian_Gateway_Admin_Format::datetime( Armenian_Gateway_Response::text_of( $hold, 'capture_before' ) ),
			__( 'Hold', 'armenian-payment-gateway' )           => self::state( $state ),
		);
		$captured = Armenian_Gateway_Response::text_of( $hold, 'capture_amount' );
		if ( '' !== $captured ) {
			$rows[ __( 'Captured', 'armenian-payment-gateway' ) ] = Armenian_Gateway_Admin_Format::amount( $captured, $currency );
		}
		echo '<table class="widefat striped armenian-gateway-hold"><tbody>';
		foreach ( $rows as $label => $value ) {
			echo '<tr><th scope="row">' . esc_html( $label ) . '</th><td>' . esc_html( $value ) . '</td></tr>';
		}
		echo '</tbody></table>';

		if ( 'expired' === $state ) {
			Armenian_Gateway_Admin_Format::notice( 'warning', __( 'The card hold ran out before it was captured: nothing was taken from the buyer, and nothing can be captured any more. Ask the buyer to pay again, or cancel the order.', 'armenian-payment-gateway' ), '', 'inline armenian-gateway-hold-expired' );
		} elseif ( 'capture_unknown' === $state || 'capturing' === $state ) {
			Armenian_Gateway_Admin_Format::notice( 'info', __( 'A capture was sent and the bank has not confirmed it yet. It is checked again automatically: do not capture again.', 'armenian-payment-gateway' ), '', 'inline armenian-gateway-hold-pending' );
		} elseif ( 'authorized' === $state && current_user_can( Armenian_Gateway_Health::CAPABILITY ) ) {
			self::capture_button( $order, $held );
		}
	}

	/**
	 * The amount field and the Capture button.
	 *
	 * @param WC_Order $order The order.
	 * @param string   $held  The amount held, whole AMD.
	 */
	private static function capture_button( $order, $held ) {
		$field = Armenian_Gateway_Holds::AMOUNT_FIELD;
		echo '<p class="armenian-gateway-capture"><label for="' . esc_attr( $field ) . '">' . esc_html__( 'Amount to capture (AMD)', 'armenian-payment-gateway' ) . '</label> ';
		echo '<input type="number" min="1" step="1" max="' . esc_attr( $held ) . '" id="' . esc_attr( $field ) . '" name="' . esc_attr( $field ) . '" value="' . esc_attr( $held ) . '" class="small-text" /> ';
		echo '<button type="submit" class="button button-primary armenian-gateway-capture-button" formmethod="post" formnovalidate="formnovalidate" formaction="' . esc_url( Armenian_Gateway_Holds::capture_url( $order ) ) . '">' . esc_html__( 'Capture', 'armenian-payment-gateway' ) . '</button></p>';
		echo '<p class="description">' . esc_html__( 'Takes the money held on the buyer\'s card: all of it, or less (the rest is released). A hold is captured once. Setting the order to Processing or Completed captures all of it.', 'armenian-payment-gateway' ) . '</p>';
	}

	/**
	 * A hold's state in words.
	 *
	 * @param string $state The connector's `hold.state`.
	 * @return string
	 */
	private static function state( $state ) {
		switch ( $state ) {
			case 'authorized':
				return __( 'held, not captured yet', 'armenian-payment-gateway' );
			case 'capturing':
			case 'capture_unknown':
				return __( 'capture waiting for the bank', 'armenian-payment-gateway' );
			case 'captured':
				return __( 'captured', 'armenian-payment-gateway' );
			case 'voided':
				return __( 'released with the cancelled order', 'armenian-payment-gateway' );
			case 'expired':
				return __( 'ran out uncaptured', 'armenian-payment-gateway' );
			default:
				return Armenian_Gateway_Admin_Format::text( $state );
		}
	}
}
