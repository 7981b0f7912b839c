<?php
/**
 * The gateway's settings form: its fields, and how the connect token and the connector URL are read
 * from what the shop owner posts. The gateway class (class-armenian-gateway.php) hands WooCommerce's
 * settings API to these.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The settings fields of Armenian_Gateway.
 */
final class Armenian_Gateway_Settings_Fields {

	/**
	 * The settings the shop owner fills in.
	 *
	 * @return array
	 */
	public static function fields() {
		return array(
			'enabled'       => array(
				'title'   => __( 'Enable/Disable', 'armenian-payment-gateway' ),
				'type'    => 'checkbox',
				'label'   => __( 'Enable Armenian Payment Gateway', 'armenian-payment-gateway' ),
				'default' => 'no',
			),
			'title'         => array(
				'title'       => __( 'Title', 'armenian-payment-gateway' ),
				'type'        => 'text',
				'description' => __( 'The name of the payment method buyers see at checkout.', 'armenian-payment-gateway' ),
				'default'     => __( 'Bank card or wallet', 'armenian-payment-gateway' ),
				'desc_tip'    => true,
			),
			'description'   => array(
				'title'       => __( 'Description', 'armenian-payment-gateway' ),
				'type'        => 'textarea',
				'description' => __( 'What buyers read under the payment method at checkout.', 'armenian-payment-gateway' ),
				'default'     => __( 'Pay with an Armenian bank card or wallet on a secure payment page.', 'armenian-payment-gateway' ),
				'desc_tip'    => true,
			),
			'connect_token' => array(
				'title'       => __( 'Connect token', 'armenian-payment-gateway' ),
				'type'        => 'connect_token',
				'description' => __( 'The connect token issued for this store. A test token takes test payments only; a live token takes real payments. The saved token is never shown: leave the field empty to keep it.', 'armenian-payment-gateway' ),
				'default'     => '',
			),
			'connector_url' => array(
				'title'       => __( 'Connector URL', 'armenian-payment-gateway' ),
				'type'        => 'text',
				'description' => __( 'The address of the connector, given with your connect token (for example https://connector.example.am).', 'armenian-payment-gateway' ),
				'default'     => '',
				'placeholder' => 'https://',
			),
			'capture_later' => array(
				'title'       => __( 'Authorize only, capture later', 'armenian-payment-gateway' ),
				'type'        => 'checkbox',
				'label'       => __( 'Hold the buyer\'s card when the order is placed, and take the money when you process the order', 'armenian-payment-gateway' ),
				'description' => __( 'Cards only: wallets cannot hold a payment, so with this on buyers pay by card. A held order is On hold; setting it to Processing or Completed takes the money, or use Capture in the order\'s payment panel to take less. Cancelling the order releases the hold. A hold runs out after a few days (the panel says until when).', 'armenian-payment-gateway' ),
				'default'     => 'no',
			),
			'test_mode'     => array(
				'title'       => __( 'Test mode', 'armenian-payment-gateway' ),
				'type'        => 'checkbox',
				'label'       => __( 'Show buyers that payments are test payments', 'armenian-payment-gateway' ),
				'description' => __( 'Keep this on while you use a test connect token, and turn it off when you switch to a live token.', 'armenian-payment-gateway' ),
				'default'     => 'yes',
			),
		);
	}

	/**
	 * Cleans the connect token: a pasted token may carry spaces or line breaks. The token is kept in
	 * an option of its own; the settings (autoloaded on every request) never hold it.
	 *
	 * @param mixed $value Posted value.
	 * @return string What the settings keep: always empty.
	 */
	public static function clean_connect_token( $value ) {
		$token = (string) preg_replace( '/\s+/', '', wp_unslash( is_scalar( $value ) ? (string) $value : '' ) );
		// The field is always shown empty: empty means "keep the saved token".
		$token = '' === $token ? Armenian_Gateway_Connector::saved_token() : $token;
		if ( '' !== $token ) {
			update_option( Armenian_Gateway_Connector::TOKEN_OPTION, $token, false );
		}
		// The settings are autoloaded on every request: they never hold the token.
		return '';
	}

	/**
	 * The connect token's field: a password input that never carries the saved token (WooCommerce's
	 * `password` type prints it in the page source as its value), with a placeholder saying one is saved.
	 *
	 * @param string $field The field's input name.
	 * @param array  $data  Field definition.
	 * @param bool   $saved Whether a token is saved.
	 * @return string
	 */
	public static function connect_token_html( $field, $data, $saved ) {
				ob_start();
		echo '<tr valign="top"><th scope="row" class="titledesc"><label for="' . esc_attr( $field ) . '">' . esc_html( $data['title'] ) . '</label></th><td class="forminp"><fieldset>';
		echo '<input class="input-text regular-input" type="password" name="' . esc_attr( $field ) . '" id="' . esc_attr( $field ) . '" value="" autocomplete="new-password" placeholder="' . esc_attr( $saved ? __( 'Saved (hidden). Paste a new token to replace it.', 'armenian-payment-gateway' ) : '' ) . '" />';
		echo '<p class="description">' . esc_html( $data['description'] ) . '</p></fieldset></td></tr>';
		return (string) ob_get_clean();
	}

	/**
	 * Keeps an http(s) connector address without its trailing slash; a refused one keeps the previous
	 * address and says why on the settings page.
	 *
	 * @param Armenian_Gateway $gateway The gateway whose settings these are.
	 * @param mixed            $value   Posted value.
	 * @return string
	 */
	public static function clean_connector_url( $gateway, $value ) {
		$value = trim( wp_unslash( is_scalar( $value ) ? (string) $value : '' ) );
		if ( '' === $value ) {
			return '';
		}
		// A bare host is an https address (esc_url_raw would make it http://).
		if ( ! preg_match( '#^[a-z][a-z0-9+.-]*:#i', $value ) ) {
			$value = 'https://' . $value;
		}
		$url     = esc_url_raw( $value, array( 'http', 'https' ) );
		$problem = '' === $url ? __( 'The connector URL must be a full address starting with https://.', 'armenian-payment-gateway' ) : Armenian_Gateway_Connector_Url::problem( $url );
		if ( '' !== $problem ) {
			$message  = $problem;
			$previous = (string) $gateway->get_option( 'connector_url', '' );
			if ( '' !== $previous ) {
				/* translators: %s: the connector URL kept. */
				$message .= ' ' . sprintf( __( 'The previous connector URL (%s) is kept.', 'armenian-payment-gateway' ), $previous );
			}
			if ( class_exists( 'WC_Admin_Settings' ) ) {
				WC_Admin_Settings::add_error( $message );
			} else {
				$gateway->add_error( $message );
			}
			return $previous;
		}
		return untrailingslashit( $url );
	}
}
