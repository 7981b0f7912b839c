<?php
/**
 * The connector's plugin-facing HTTP API, as one small client.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Calls the connector with the store's connect token and turns its answer, its error body
 * (`{"error","message"}`) or a transport failure into one WC_Armenian_Gateway_Response. The connect
 * token travels only in the `X-Service-Connect` header and is scrubbed from every message.
 */
final class WC_Armenian_Gateway_Connector {

	/**
	 * Seconds a call may take by default (checkout, return, refunds, settings).
	 */
	const TIMEOUT = 15;

	/**
	 * Seconds a call made while an admin page renders may take (order panel, health notice).
	 */
	const PAGE_TIMEOUT = 8;

	/**
	 * The option WooCommerce keeps the gateway's settings in.
	 */
	const SETTINGS_OPTION = 'woocommerce_armenian_gateway_settings';

	/**
	 * The connect token.
	 *
	 * @var string
	 */
	private $token;

	/**
	 * The connector's base URL, without a trailing slash.
	 *
	 * @var string
	 */
	private $base;

	/**
	 * Builds a client.
	 *
	 * @param string $token The connect token.
	 * @param string $base  The connector URL.
	 */
	public function __construct( $token, $base ) {
		$this->token = trim( (string) $token );
		$this->base  = untrailingslashit( trim( (string) $base ) );
	}

	/**
	 * A client with the token and URL saved in the gateway's settings.
	 *
	 * @return self
	 */
	public static function from_settings() {
		$settings = get_option( self::SETTINGS_OPTION, array() );
		$settings = is_array( $settings ) ? $settings : array();
		return new self(
			isset( $settings['connect_token'] ) ? (string) $settings['connect_token'] : '',
			isset( $settings['connector_url'] ) ? (string) $settings['connector_url'] : ''
		);
	}

	/**
	 * True when the connect token and the connector URL are set.
	 *
	 * @return bool
	 */
	public function is_configured() {
		return '' !== $this->token && '' !== $this->base;
	}

	/**
	 * One call.
	 *
	 * @param string     $method  GET, POST or DELETE.
	 * @param string     $path    Path from the connector's root, starting with a slash.
	 * @param array|null $body    JSON body, or null for none.
	 * @param int        $timeout Seconds the call may take.
	 * @return WC_Armenian_Gateway_Response
	 */
	public function request( $method, $path, $body = null, $timeout = self::TIMEOUT ) {
		if ( ! $this->is_configured() ) {
			return WC_Armenian_Gateway_Response::failure( 0, 'not_configured', __( 'The connect token or the connector URL is missing in the payment method settings.', 'armenian-payment-gateway' ) );
		}

		$args = array(
			'method'      => $method,
			'timeout'     => $timeout,
			'redirection' => 0,
			'user-agent'  => 'ArmenianPaymentGateway-WooCommerce/' . ( defined( 'ARMENIAN_GATEWAY_VERSION' ) ? ARMENIAN_GATEWAY_VERSION : '0' ),
			'headers'     => array(
				'Accept'            => 'application/json',
				'X-Service-Connect' => $this->token,
			),
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( $body );
		}

		$response = wp_remote_request( $this->base . $path, $args );
		if ( is_wp_error( $response ) ) {
			return WC_Armenian_Gateway_Response::failure( 0, WC_Armenian_Gateway_Response::TRANSPORT_ERROR, $this->scrub( $response->get_error_message() ) );
		}

		$status  = (int) wp_remote_retrieve_response_code( $response );
		$raw     = (string) wp_remote_retrieve_body( $response );
		$decoded = '' === $raw ? array() : json_decode( $raw, true );
		if ( ! is_array( $decoded ) ) {
			return WC_Armenian_Gateway_Response::failure(
				$status,
				WC_Armenian_Gateway_Response::INVALID_RESPONSE,
				/* translators: %d: HTTP status. */
				sprintf( __( 'The connector answered HTTP %d without the expected JSON body.', 'armenian-payment-gateway' ), $status )
			);
		}
		if ( $status >= 200 && $status < 300 ) {
			return WC_Armenian_Gateway_Response::success( $status, $decoded );
		}

		$error   = isset( $decoded['error'] ) && is_string( $decoded['error'] ) ? $decoded['error'] : 'http_' . $status;
		$message = isset( $decoded['message'] ) && is_string( $decoded['message'] )
			? $decoded['message']
			/* translators: %d: HTTP status. */
			: sprintf( __( 'The connector answered HTTP %d.', 'armenian-payment-gateway' ), $status );
		return WC_Armenian_Gateway_Response::failure( $status, $error, $this->scrub( $message ), $decoded );
	}

	/**
	 * Removes the connect token from a message.
	 *
	 * @param string $message The message.
	 * @return string
	 */
	public function scrub( $message ) {
		return '' === $this->token ? (string) $message : str_replace( $this->token, '[connect token]', (string) $message );
	}

	/**
	 * The message a shop owner sees for a failed call: the connector's own message, or why it could
	 * not be reached.
	 *
	 * @param WC_Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	public static function admin_error_message( WC_Armenian_Gateway_Response $result ) {
		if ( $result->is_error( WC_Armenian_Gateway_Response::TRANSPORT_ERROR ) ) {
			/* translators: %s: the transport error. */
			return sprintf( __( 'The connector could not be reached (%s). Check the connector URL.', 'armenian-payment-gateway' ), $result->message );
		}
		if ( $result->is_error( 'not_configured' ) ) {
			return $result->message;
		}
		return '' !== $result->message ? $result->message : (string) $result->error;
	}

	/**
	 * Writes to the WooCommerce log (WooCommerce > Status > Logs, source `armenian-gateway`).
	 * Messages carry the connector's error code and message, never the connect token.
	 *
	 * @param string                            $level   warning or error.
	 * @param string                            $message What failed.
	 * @param WC_Armenian_Gateway_Response|null $result  The connector's answer.
	 */
	public static function log( $level, $message, $result ) {
		if ( ! function_exists( 'wc_get_logger' ) ) {
			return;
		}
		if ( null !== $result ) {
			$message .= sprintf( ': HTTP %1$d %2$s: %3$s', $result->status, (string) $result->error, $result->message );
		}
		wc_get_logger()->log( $level, $message, array( 'source' => 'armenian-gateway' ) );
	}
}
