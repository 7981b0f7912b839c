<?php
/**
 * The connector's plugin-facing HTTP API, as one small client.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Calls the connector with the store's connect token and turns its answer, its error body
 * (`{"error","message"}`) or a transport failure into one Armenian_Gateway_Response. The connect
 * token travels only in the `X-Service-Connect` header and is scrubbed from every message.
 *
 * Every call goes through wp_safe_remote_request (no private or loopback address, ports 80, 443 and
 * 8080 only) to an https connector, unless the site defines ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR
 * (development: a connector on this machine or the local network, over http). Calls made while an
 * admin page renders share one time budget (PAGE_BUDGET), so a connector that does not answer holds
 * a page for at most that long.
 */
final class Armenian_Gateway_Connector {

	/**
	 * Seconds a call may take by default (checkout, return, refunds, settings).
	 */
	const TIMEOUT = 15;

	/**
	 * Seconds a call made for an admin's action may take ("Check now", "Reconnect", saving the
	 * settings: all the calls of one save together).
	 */
	const ACTION_TIMEOUT = 8;

	/**
	 * Seconds all the calls made while one admin page renders may take together (health notice,
	 * settings page, order panel, reconciliation page).
	 */
	const PAGE_BUDGET = 1.5;

	/**
	 * Seconds a page keeps to itself after a connector call of a page failed to get an answer: pages
	 * then say so at once instead of waiting again.
	 */
	const UNREACHABLE_SECONDS = 60;

	/**
	 * Transient marking the connector as not answering (set by a page call that got no answer).
	 */
	const UNREACHABLE_TRANSIENT = 'armenian_gateway_unreachable';

	/**
	 * The largest answer read from the connector, in bytes (a reconciliation run with its findings).
	 */
	const MAX_RESPONSE_BYTES = 2097152;

	/**
	 * Error code of a call the time budget left no time for, or that the connector did not answer in time.
	 */
	const TIMEOUT_ERROR = 'connector_timeout';

	/**
	 * Error code of a connector URL this site refuses to call (not https, or not a public address).
	 */
	const URL_REFUSED = 'connector_url_refused';

	/**
	 * When the time budget of this request ends (microtime), or null when there is none.
	 *
	 * @var float|null
	 */
	private static $deadline = null;

	/**
	 * The option WooCommerce keeps the gateway's settings in (autoloaded on every request).
	 */
	const SETTINGS_OPTION = 'woocommerce_armenian_gateway_settings';

	/**
	 * The option holding the connect token, not autoloaded: it is read only when the connector is called.
	 */
	const TOKEN_OPTION = 'armenian_gateway_connect_token';

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
			self::saved_token(),
			isset( $settings['connector_url'] ) && is_string( $settings['connector_url'] ) ? $settings['connector_url'] : ''
		);
	}

	/**
	 * The saved connect token: TOKEN_OPTION, or where version 0.1.0 kept it (the settings).
	 *
	 * @return string
	 */
	public static function saved_token() {
		$token = get_option( self::TOKEN_OPTION, '' );
		if ( is_string( $token ) && '' !== $token ) {
			return $token;
		}
		$settings = get_option( self::SETTINGS_OPTION, array() );
		return is_array( $settings ) && isset( $settings['connect_token'] ) && is_string( $settings['connect_token'] ) ? trim( $settings['connect_token'] ) : '';
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
	 * Limits the calls of this request to end within `$seconds` from now (a later limit never
	 * extends an earlier one).
	 *
	 * @param float $seconds Seconds from now.
	 */
	public static function limit_to( $seconds ) {
		$deadline = microtime( true ) + (float) $seconds;
		if ( null === self::$deadline || $deadline < self::$deadline ) {
			self::$deadline = $deadline;
		}
	}

	/**
	 * A call made while an admin page renders: within the page's time budget, and at once refused
	 * while the connector is known not to answer (for UNREACHABLE_SECONDS after a page call got no answer).
	 *
	 * @param string $method GET, POST or DELETE.
	 * @param string $path   Path from the connector's root, starting with a slash.
	 * @return Armenian_Gateway_Response
	 */
	public function page_request( $method, $path ) {
		if ( ! $this->is_configured() ) {
			return $this->request( $method, $path );
		}
		if ( false !== get_transient( self::UNREACHABLE_TRANSIENT ) ) {
			return Armenian_Gateway_Response::failure( 0, self::TIMEOUT_ERROR, self::timeout_message() );
		}
		self::limit_to( self::PAGE_BUDGET );
		$result = $this->request( $method, $path, null, self::PAGE_BUDGET );
		if ( $result->is_error( self::TIMEOUT_ERROR ) || $result->is_error( Armenian_Gateway_Response::TRANSPORT_ERROR ) ) {
			set_transient( self::UNREACHABLE_TRANSIENT, 1, self::UNREACHABLE_SECONDS );
		}
		return $result;
	}

	/**
	 * Forgets that the connector did not answer (settings saved, an action that reached it).
	 */
	public static function forget_unreachable() {
		delete_transient( self::UNREACHABLE_TRANSIENT );
	}

	/**
	 * What a shop owner reads when the connector did not answer in time.
	 *
	 * @return string
	 */
	public static function timeout_message() {
		return __( 'The connector did not answer in time. The page was shown without it; reload it in a minute.', 'armenian-payment-gateway' );
	}

	/**
	 * One call.
	 *
	 * @param string     $method  GET, POST or DELETE.
	 * @param string     $path    Path from the connector's root, starting with a slash.
	 * @param array|null $body    JSON body, or null for none.
	 * @param float      $timeout Seconds the call may take (less when the request's time budget ends sooner).
	 * @return Armenian_Gateway_Response
	 */
	public function request( $method, $path, $body = null, $timeout = self::TIMEOUT ) {
		if ( ! $this->is_configured() ) {
			return Armenian_Gateway_Response::failure( 0, 'not_configured', __( 'The connect token or the connector URL is missing in the payment method settings.', 'armenian-payment-gateway' ) );
		}
		$problem = Armenian_Gateway_Connector_Url::problem( $this->base );
		if ( '' !== $problem ) {
			return Armenian_Gateway_Response::failure( 0, self::URL_REFUSED, $problem );
		}
		if ( null !== self::$deadline ) {
			$left = self::$deadline - microtime( true );
			if ( $left < 0.05 ) {
				return Armenian_Gateway_Response::failure( 0, self::TIMEOUT_ERROR, self::timeout_message() );
			}
			$timeout = min( (float) $timeout, $left );
		}

		$args = array(
			'method'              => $method,
			'timeout'             => (float) $timeout,
			'redirection'         => 0,
			'limit_response_size' => self::MAX_RESPONSE_BYTES,
			'user-agent'          => 'ArmenianPaymentGateway-WooCommerce/' . ( defined( 'ARMENIAN_GATEWAY_VERSION' ) ? ARMENIAN_GATEWAY_VERSION : '0' ),
			'headers'             => array(
				'Accept'            => 'application/json',
				'X-Service-Connect' => $this->token,
			),
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( $body );
		}

		$url     = $this->base . $path;
		$started = microtime( true );
		$allow   = $this->allow_local( $url );
		$response = wp_safe_remote_request( $url, $args );
		$this->disallow_local( $allow );
		if ( is_wp_error( $response ) ) {
			return $this->transport_failure( $response, microtime( true ) - $started, (float) $timeout );
		}

		$status  = (int) wp_remote_retrieve_response_code( $response );
		$raw     = (string) wp_remote_retrieve_body( $response );
		$decoded = '' === $raw ? array() : json_decode( $raw, true );
		if ( ! is_array( $decoded ) ) {
			return Armenian_Gateway_Response::failure(
				$status,
				Armenian_Gateway_Response::INVALID_RESPONSE,
				/* translators: %d: HTTP status. */
				sprintf( __( 'The connector answered HTTP %d without the expected JSON body.', 'armenian-payment-gateway' ), $status )
			);
		}
		if ( $status >= 200 && $status < 300 ) {
			return Armenian_Gateway_Response::success( $status, $decoded );
		}

		$error   = isset( $decoded['error'] ) && is_string( $decoded['error'] ) ? $decoded['error'] : 'http_' . $status;
		$message = isset( $decoded['message'] ) && is_string( $decoded['message'] )
			? $decoded['message']
			/* translators: %d: HTTP status. */
			: sprintf( __( 'The connector answered HTTP %d.', 'armenian-payment-gateway' ), $status );
		return Armenian_Gateway_Response::failure( $status, $error, $this->scrub( $message ), $decoded );
	}

	/**
	 * A call that got no answer, in words that say what to do and nothing about the network (no
	 * host, port or resolver detail that a shop manager could use to probe it).
	 *
	 * @param WP_Error $error   The transport's error.
	 * @param float    $elapsed Seconds the call took.
	 * @param float    $timeout Seconds it was given.
	 * @return Armenian_Gateway_Response
	 */
	private function transport_failure( $error, $elapsed, $timeout ) {
		$detail = strtolower( (string) $error->get_error_message() );
		if ( $elapsed >= $timeout - 0.05 || false !== strpos( $detail, 'timed out' ) || false !== strpos( $detail, 'timeout' ) ) {
			return Armenian_Gateway_Response::failure( 0, self::TIMEOUT_ERROR, self::timeout_message() );
		}
		if ( false !== strpos( $detail, 'valid url' ) ) {
			return Armenian_Gateway_Response::failure(
				0,
				self::URL_REFUSED,
				__( 'WordPress refused to call the connector URL: it must be a public address on port 443 (or 80 or 8080).', 'armenian-payment-gateway' )
			);
		}
		return Armenian_Gateway_Response::failure( 0, Armenian_Gateway_Response::TRANSPORT_ERROR, __( 'The connector could not be reached.', 'armenian-payment-gateway' ) );
	}

	/**
	 * With ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR, lets wp_safe_remote_request reach the connector's
	 * own host and port (a loopback or private address, any port) for this one call.
	 *
	 * @param string $url The URL about to be called.
	 * @return array The filters added, for disallow_local().
	 */
	private function allow_local( $url ) {
		if ( ! Armenian_Gateway_Connector_Url::local_allowed() ) {
			return array();
		}
		$host = strtolower( (string) wp_parse_url( $url, PHP_URL_HOST ) );
		$port = (int) wp_parse_url( $url, PHP_URL_PORT );
		$hook = array(
			'http_request_host_is_external' => function ( $external, $requested ) use ( $host ) {
				return $external || strtolower( (string) $requested ) === $host;
			},
			'http_allowed_safe_ports'       => function ( $ports, $requested = '' ) use ( $host, $port ) {
				if ( $port > 0 && strtolower( (string) $requested ) === $host && is_array( $ports ) ) {
					$ports[] = $port;
				}
				return $ports;
			},
		);
		add_filter( 'http_request_host_is_external', $hook['http_request_host_is_external'], 10, 2 );
		add_filter( 'http_allowed_safe_ports', $hook['http_allowed_safe_ports'], 10, 2 );
		return $hook;
	}

	/**
	 * Removes the filters allow_local() added.
	 *
	 * @param array $hooks Filter name => callback.
	 */
	private function disallow_local( array $hooks ) {
		foreach ( $hooks as $name => $callback ) {
			remove_filter( $name, $callback, 10 );
		}
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
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	public static function admin_error_message( Armenian_Gateway_Response $result ) {
		if ( $result->is_error( Armenian_Gateway_Response::TRANSPORT_ERROR ) ) {
			return __( 'The connector could not be reached. Check the connector URL.', 'armenian-payment-gateway' );
		}
		if ( $result->is_error( 'not_configured' ) || $result->is_error( self::TIMEOUT_ERROR ) || $result->is_error( self::URL_REFUSED ) ) {
			return $result->message;
		}
		return '' !== $result->message ? $result->message : (string) $result->error;
	}

	/**
	 * Writes to the WooCommerce log (WooCommerce > Status > Logs, source `armenian-gateway`).
	 * Messages carry the connector's error code and message, never the connect token.
	 *
	 * @param string                         $level   warning or error.
	 * @param string                         $message What failed.
	 * @param Armenian_Gateway_Response|null $result  The connector's answer.
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
