<?php
/**
 * The connector's answer to one call, or the reason there was none.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * One connector answer: the HTTP status and the JSON body on success; the connector's error code
 * and message (`{"error","message"}`) on a refusal; `transport_error` (status 0) when the connector
 * could not be reached, and `invalid_response` when it answered something that is not JSON.
 */
final class Armenian_Gateway_Response {

	/**
	 * Error code when the connector could not be reached.
	 */
	const TRANSPORT_ERROR = 'transport_error';

	/**
	 * Error code when the connector's answer was not the JSON the contract promises.
	 */
	const INVALID_RESPONSE = 'invalid_response';

	/**
	 * HTTP status; 0 when there was no answer.
	 *
	 * @var int
	 */
	public $status;

	/**
	 * The decoded JSON body (an empty array when there was none).
	 *
	 * @var array
	 */
	public $body;

	/**
	 * The error code, or null on success.
	 *
	 * @var string|null
	 */
	public $error;

	/**
	 * The error message, or an empty string on success.
	 *
	 * @var string
	 */
	public $message;

	/**
	 * Builds a result.
	 *
	 * @param int         $status  HTTP status, 0 when there was no answer.
	 * @param array       $body    Decoded JSON body.
	 * @param string|null $error   Error code, null on success.
	 * @param string      $message Error message.
	 */
	private function __construct( $status, array $body, $error, $message ) {
		$this->status  = (int) $status;
		$this->body    = $body;
		$this->error   = $error;
		$this->message = (string) $message;
	}

	/**
	 * A successful (2xx) answer.
	 *
	 * @param int   $status HTTP status.
	 * @param array $body   Decoded JSON body.
	 * @return self
	 */
	public static function success( $status, array $body ) {
		return new self( $status, $body, null, '' );
	}

	/**
	 * A refusal or a failure.
	 *
	 * @param int    $status  HTTP status, 0 when there was no answer.
	 * @param string $error   Error code.
	 * @param string $message Error message.
	 * @param array  $body    The decoded body, when there was one.
	 * @return self
	 */
	public static function failure( $status, $error, $message, array $body = array() ) {
		return new self( $status, $body, (string) $error, $message );
	}

	/**
	 * True for a 2xx answer with a JSON body.
	 *
	 * @return bool
	 */
	public function is_ok() {
		return null === $this->error;
	}

	/**
	 * True when the connector refused with this error code.
	 *
	 * @param string $code Error code from the connector's contract.
	 * @return bool
	 */
	public function is_error( $code ) {
		return $this->error === $code;
	}

	/**
	 * A string field of the body, or the default.
	 *
	 * @param string $key      Field name.
	 * @param string $fallback Value when the field is missing or not scalar.
	 * @return string
	 */
	public function field( $key, $fallback = '' ) {
		return self::text_of( $this->body, $key, $fallback );
	}

	/**
	 * A scalar field of a connector object as a string, or the fallback when the object is not an
	 * array or the field is missing, null, an array or an object (the connector's answers are read
	 * as untrusted: one bad field must not warn or throw).
	 *
	 * @param mixed  $data     The object (an array when it is one).
	 * @param string $key      Field name.
	 * @param string $fallback Value otherwise.
	 * @return string
	 */
	public static function text_of( $data, $key, $fallback = '' ) {
		if ( is_array( $data ) && isset( $data[ $key ] ) && is_scalar( $data[ $key ] ) ) {
			return is_bool( $data[ $key ] ) ? ( $data[ $key ] ? 'true' : 'false' ) : (string) $data[ $key ];
		}
		return $fallback;
	}

	/**
	 * A field that must be an object or a list, or an empty array when it is anything else.
	 *
	 * @param mixed  $data The object (an array when it is one).
	 * @param string $key  Field name.
	 * @return array
	 */
	public static function array_of( $data, $key ) {
		return is_array( $data ) && isset( $data[ $key ] ) && is_array( $data[ $key ] ) ? $data[ $key ] : array();
	}

	/**
	 * The items of a list field that are objects; any other item is left out.
	 *
	 * @param mixed  $data The object (an array when it is one).
	 * @param string $key  Field name.
	 * @return array[]
	 */
	public static function objects_of( $data, $key ) {
		return array_values( array_filter( self::array_of( $data, $key ), 'is_array' ) );
	}

	/**
	 * The items of a list field that are strings; any other item is left out.
	 *
	 * @param mixed  $data The object (an array when it is one).
	 * @param string $key  Field name.
	 * @return string[]
	 */
	public static function strings_of( $data, $key ) {
		return array_values( array_filter( self::array_of( $data, $key ), 'is_string' ) );
	}
}
