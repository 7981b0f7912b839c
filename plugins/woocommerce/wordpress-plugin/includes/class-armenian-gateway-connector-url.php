<?php
/**
 * Which connector addresses the plugin calls: an https URL of a public host (http only on this
 * computer, or with ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR for development), and why another is
 * refused, in the shop owner's words.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The rules of a connector URL.
 */
final class Armenian_Gateway_Connector_Url {

	/**
	 * True when the site allows a connector on this machine or the local network, over http
	 * (`define( 'ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR', true );` in wp-config.php, development only).
	 *
	 * @return bool
	 */
	public static function local_allowed() {
		return defined( 'ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR' ) && true === ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR;
	}

	/**
	 * Why a connector URL cannot be used, or '' when it can: it must be an absolute https URL (http
	 * only for a loopback host, or with ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR), without user
	 * information, query or fragment.
	 *
	 * @param string $url The connector URL.
	 * @return string
	 */
	public static function problem( $url ) {
		$parts = wp_parse_url( (string) $url );
		if ( ! is_array( $parts ) || empty( $parts['scheme'] ) || empty( $parts['host'] ) ) {
			return __( 'The connector URL must be a full address starting with https://.', 'armenian-payment-gateway' );
		}
		if ( isset( $parts['user'] ) || isset( $parts['pass'] ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) ) {
			return __( 'The connector URL must not carry a user name, a password, a query or a fragment.', 'armenian-payment-gateway' );
		}
		$scheme = strtolower( (string) $parts['scheme'] );
		$host   = trim( (string) $parts['host'], '[]' );
		if ( ! self::local_allowed() && false !== filter_var( $host, FILTER_VALIDATE_IP ) && ! self::is_loopback_host( $host )
			&& false === filter_var( $host, FILTER_VALIDATE_IP, FILTER_FLAG_NO_PRIV_RANGE | FILTER_FLAG_NO_RES_RANGE ) ) {
			return __( 'The connector URL must be a public address: this site does not call private or reserved network addresses.', 'armenian-payment-gateway' );
		}
		if ( 'https' === $scheme ) {
			return '';
		}
		if ( 'http' === $scheme && ( self::local_allowed() || self::is_loopback_host( (string) $parts['host'] ) ) ) {
			return '';
		}
		return __( 'The connector URL must start with https://, so that the connect token, the REST API key and your buyers\' details travel encrypted (http:// is accepted only for a connector on this computer).', 'armenian-payment-gateway' );
	}

	/**
	 * True for localhost, 127.0.0.0/8 and ::1.
	 *
	 * @param string $host A URL's host.
	 * @return bool
	 */
	public static function is_loopback_host( $host ) {
		$host = strtolower( trim( (string) $host, '[]' ) );
		return 'localhost' === $host || '::1' === $host || 1 === preg_match( '/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/', $host );
	}
}
