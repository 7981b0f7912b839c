<?php
/**
 * Minimal stand-ins for the WordPress functions and classes the plugin uses. They record what the
 * plugin does (hooks, redirects, options, scripts) in $GLOBALS['harness'], and wp_safe_remote_request
 * checks the URL as WordPress does, then makes real HTTP calls with PHP streams. WooCommerce's part is in stubs-woocommerce.php.
 */

$GLOBALS['harness'] = array(
	'hooks'            => array(),
	'notices'          => array(),
	'redirect'         => null,
	'died'             => null,
	'logs'             => array(),
	'http'             => array(),
	'options'          => array(),
	'post_meta_writes' => array(),
	'scripts'          => array(),
	'enqueued'         => array(),
	'privacy'          => array(),
	'autoload'         => array(),
	'features'         => array(),
	'errors'           => array(),
	'meta_boxes'       => array(),
	'submenu_pages'    => array(),
	'settings_errors'  => array(),
	'scheduled'        => array(),
	'recurring'        => array(),
	'unscheduled'      => array(),
	'deleted_refunds'  => array(),
	'api_keys'         => array(),
);
// Serve mode (router.php under `php -S`): redirects and wp_die answer for real.
$GLOBALS['harness_serve'] = isset( $GLOBALS['harness_serve'] ) ? $GLOBALS['harness_serve'] : false;
// What the logged-in user may do.
$GLOBALS['harness_caps'] = isset( $GLOBALS['harness_caps'] ) ? $GLOBALS['harness_caps'] : array( 'manage_woocommerce', 'edit_shop_orders' );
// The versions the plugin is tested against: plugins/woocommerce/tested-versions.json, the one place that says them.
$GLOBALS['harness_versions'] = json_decode( (string) file_get_contents( __DIR__ . '/../../../../plugins/woocommerce/tested-versions.json' ), true );
$GLOBALS['wp_version']       = $GLOBALS['harness_versions']['tested']['wordpress'];
if ( ! defined( 'MINUTE_IN_SECONDS' ) ) {
	define( 'MINUTE_IN_SECONDS', 60 );
}
if ( ! defined( 'HOUR_IN_SECONDS' ) ) {
	define( 'HOUR_IN_SECONDS', 3600 );
}
$GLOBALS['harness_orders'] = array();
$GLOBALS['harness_refunds'] = array();

/**
 * WP-Cron's recurring events: recorded by hook (with the recurrence); `wp_next_scheduled` sees them.
 */
function wp_schedule_event( $timestamp, $recurrence, $hook, $args = array() ) {
	$GLOBALS['harness']['recurring'][ $hook ] = $recurrence;
	return true;
}

function wp_next_scheduled( $hook, $args = array() ) {
	return isset( $GLOBALS['harness']['recurring'][ $hook ] ) ? time() + 60 : false;
}

function wp_unschedule_hook( $hook ) {
	$GLOBALS['harness']['unscheduled'][] = $hook;
	unset( $GLOBALS['harness']['recurring'][ $hook ] );
	return 0;
}

// Hooks.

/**
 * WP-Cron's single event: recorded (in seconds from now), not run; a scenario runs it with do_action.
 */
function wp_schedule_single_event( $timestamp, $hook, $args = array() ) {
	$GLOBALS['harness']['scheduled'][] = array(
		'in'   => (int) $timestamp - time(),
		'hook' => $hook,
		'args' => $args,
	);
	return true;
}

function add_action( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	$GLOBALS['harness']['hooks'][ $hook ][] = $callback;
	return true;
}

function add_filter( $hook, $callback, $priority = 10, $accepted_args = 1 ) {
	return add_action( $hook, $callback, $priority, $accepted_args );
}

function do_action( $hook, ...$args ) {
	foreach ( isset( $GLOBALS['harness']['hooks'][ $hook ] ) ? $GLOBALS['harness']['hooks'][ $hook ] : array() as $callback ) {
		call_user_func_array( $callback, $args );
	}
}

function remove_filter( $hook, $callback, $priority = 10 ) {
	foreach ( isset( $GLOBALS['harness']['hooks'][ $hook ] ) ? $GLOBALS['harness']['hooks'][ $hook ] : array() as $index => $registered ) {
		if ( $registered === $callback ) {
			unset( $GLOBALS['harness']['hooks'][ $hook ][ $index ] );
			return true;
		}
	}
	return false;
}

function has_action( $hook ) {
	return ! empty( $GLOBALS['harness']['hooks'][ $hook ] );
}

function apply_filters( $hook, $value, ...$args ) {
	foreach ( isset( $GLOBALS['harness']['hooks'][ $hook ] ) ? $GLOBALS['harness']['hooks'][ $hook ] : array() as $callback ) {
		$value = call_user_func_array( $callback, array_merge( array( $value ), $args ) );
	}
	return $value;
}

// Translation and escaping: passthroughs.

function __( $text, $domain = 'default' ) {
	return $text;
}

function esc_html__( $text, $domain = 'default' ) {
	return esc_html( $text );
}

function esc_attr__( $text, $domain = 'default' ) {
	return esc_attr( $text );
}

function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}

function _n( $single, $plural, $number, $domain = 'default' ) {
	return 1 === (int) $number ? $single : $plural;
}

function number_format_i18n( $number, $decimals = 0 ) {
	return number_format( (float) $number, $decimals, '.', ',' );
}

function wp_date( $format, $timestamp = null ) {
	return gmdate( $format, null === $timestamp ? time() : $timestamp );
}

/** The site's time zone: the `timezone_string` option (Settings > General), UTC when unset. */
function wp_timezone() {
	$zone = get_option( 'timezone_string', '' );
	return new DateTimeZone( is_string( $zone ) && '' !== $zone ? $zone : 'UTC' );
}

function wp_parse_url( $url, $component = -1 ) {
	return parse_url( $url, $component );
}

function esc_attr( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}

function esc_url( $url ) {
	// Like WordPress, an entity already in the URL (wp_nonce_url's &amp;) is not escaped twice.
	return htmlspecialchars( (string) $url, ENT_QUOTES, 'UTF-8', false );
}

function esc_url_raw( $url, $protocols = null ) {
	return preg_match( '#^https?://#i', (string) $url ) ? (string) $url : '';
}

function wp_kses_post( $html ) {
	return $html;
}

function wpautop( $text ) {
	return '<p>' . $text . '</p>';
}

function wptexturize( $text ) {
	return $text;
}

function wp_unslash( $value ) {
	return is_string( $value ) ? stripslashes( $value ) : $value;
}

function sanitize_text_field( $value ) {
	return trim( preg_replace( '/[\r\n\t ]+/', ' ', wp_strip_all_tags( (string) $value ) ) );
}

function wp_strip_all_tags( $value ) {
	return strip_tags( $value );
}

function absint( $value ) {
	return abs( (int) $value );
}

function untrailingslashit( $value ) {
	return rtrim( (string) $value, '/\\' );
}

function wp_json_encode( $data ) {
	return json_encode( $data );
}

// URLs and options.

function harness_site_url() {
	$site = getenv( 'HARNESS_SITE_URL' );
	return is_string( $site ) && '' !== $site ? $site : 'http://shop.test';
}

function home_url( $path = '' ) {
	return harness_site_url() . $path;
}

function admin_url( $path = '' ) {
	return harness_site_url() . '/wp-admin/' . ltrim( $path, '/' );
}

function is_admin() {
	return true;
}

function plugin_dir_path( $file ) {
	return rtrim( dirname( $file ), '/' ) . '/';
}

function plugin_dir_url( $file ) {
	return harness_site_url() . '/wp-content/plugins/' . basename( dirname( $file ) ) . '/';
}

function plugins_url( $path, $plugin_file ) {
	return plugin_dir_url( $plugin_file ) . ltrim( $path, '/' );
}

function plugin_basename( $file ) {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}

function load_plugin_textdomain( $domain, $deprecated = false, $path = false ) {
	return true;
}

/** WordPress's add_query_arg (array form): an existing key is replaced; an empty value keeps no "=". */
function add_query_arg( array $args, $url ) {
	$hash  = strpos( $url, '#' );
	$frag  = false === $hash ? '' : substr( $url, $hash );
	$url   = false === $hash ? $url : substr( $url, 0, $hash );
	$q     = strpos( $url, '?' );
	$base  = false === $q ? $url : substr( $url, 0, $q );
	$query = array();
	if ( false !== $q ) {
		parse_str( substr( $url, $q + 1 ), $query );
	}
	foreach ( $args as $key => $value ) {
		$query[ $key ] = $value;
	}
	$built = preg_replace( '#=(&|$)#', '$1', http_build_query( $query ) );
	return $base . '?' . $built . $frag;
}

function get_option( $name, $fallback = false ) {
	return array_key_exists( $name, $GLOBALS['harness']['options'] ) ? $GLOBALS['harness']['options'][ $name ] : $fallback;
}

function update_option( $name, $value, $autoload = null ) {
	$GLOBALS['harness']['options'][ $name ]  = $value;
	$GLOBALS['harness']['autoload'][ $name ] = null === $autoload ? true : (bool) $autoload;
	return true;
}

function delete_option( $name ) {
	unset( $GLOBALS['harness']['options'][ $name ] );
	return true;
}

function is_multisite() {
	return false;
}

/**
 * The database, as far as the plugin uses it: LIKE deletes on the options (where transients live),
 * and deleting WooCommerce REST keys (`woocommerce_api_keys`: description LIKE, truncated_key <>),
 * whose rows a scenario gives in `api_keys`.
 */
class Harness_Wpdb {
	public $options = 'wp_options';
	public $prefix  = 'wp_';

	public function esc_like( $text ) {
		return addcslashes( $text, '_%\\' );
	}

	/** SQL LIKE as a regular expression: % any run, _ any one character, \\x the character x. */
	public static function like_pattern( $like ) {
		$pattern = '';
		for ( $i = 0; $i < strlen( $like ); $i++ ) {
			$char = $like[ $i ];
			if ( '\\' === $char && $i + 1 < strlen( $like ) ) {
				$pattern .= preg_quote( $like[ ++$i ], '/' );
			} elseif ( '%' === $char ) {
				$pattern .= '.*';
			} elseif ( '_' === $char ) {
				$pattern .= '.';
			} else {
				$pattern .= preg_quote( $char, '/' );
			}
		}
		return $pattern;
	}

	public function prepare( $query, ...$args ) {
		return vsprintf( str_replace( '%s', "'%s'", $query ), array_map( 'addslashes', $args ) );
	}

	public function query( $sql ) {
		$GLOBALS['harness']['queries'][] = $sql;
		if ( preg_match( "/^DELETE FROM wp_woocommerce_api_keys WHERE description LIKE '((?:[^'\\\\]|\\\\.)*)'(?: AND truncated_key <> '([^']*)')?$/", $sql, $key ) ) {
			$pattern = self::like_pattern( stripslashes( $key[1] ) );
			$kept    = array();
			foreach ( $GLOBALS['harness']['api_keys'] as $row ) {
				$matches = preg_match( '/^' . $pattern . '$/', $row['description'] ) && ( ! isset( $key[2] ) || $row['truncated_key'] !== $key[2] );
				if ( ! $matches ) {
					$kept[] = $row;
				}
			}
			$deleted                            = count( $GLOBALS['harness']['api_keys'] ) - count( $kept );
			$GLOBALS['harness']['api_keys']     = $kept;
			return $deleted;
		}
		if ( ! preg_match( '/^DELETE FROM wp_options WHERE /', $sql ) || ! preg_match_all( "/option_name LIKE '((?:[^'\\\\]|\\\\.)*)'/", $sql, $m ) ) {
			return false;
		}
		$deleted = 0;
		foreach ( $m[1] as $like ) {
			// SQL LIKE: % any run, _ any one character, \x the character x itself.
			$like    = stripslashes( $like );
			$pattern = '';
			for ( $i = 0; $i < strlen( $like ); $i++ ) {
				$char = $like[ $i ];
				if ( '\\' === $char && $i + 1 < strlen( $like ) ) {
					$pattern .= preg_quote( $like[ ++$i ], '/' );
				} elseif ( '%' === $char ) {
					$pattern .= '.*';
				} elseif ( '_' === $char ) {
					$pattern .= '.';
				} else {
					$pattern .= preg_quote( $char, '/' );
				}
			}
			foreach ( array_keys( $GLOBALS['harness']['options'] ) as $name ) {
				if ( preg_match( '/^' . $pattern . '$/', $name ) ) {
					unset( $GLOBALS['harness']['options'][ $name ] );
					++$deleted;
				}
			}
		}
		return $deleted;
	}
}
$GLOBALS['wpdb'] = new Harness_Wpdb();

// Transients live with the options (as WordPress keeps them without an object cache); expiry is ignored.

function get_transient( $name ) {
	return get_option( '_transient_' . $name, false );
}

function set_transient( $name, $value, $expiration = 0 ) {
	$GLOBALS['harness']['transient_writes'][] = array( $name, $expiration );
	return update_option( '_transient_' . $name, $value );
}

function delete_transient( $name ) {
	return delete_option( '_transient_' . $name );
}

// The logged-in user, capabilities and nonces.

function get_current_user_id() {
	return 1;
}

function current_user_can( $capability, ...$args ) {
	return in_array( $capability, $GLOBALS['harness_caps'], true );
}

function wp_create_nonce( $action = -1 ) {
	return substr( md5( 'harness-nonce|' . $action ), 0, 10 );
}

function wp_verify_nonce( $nonce, $action = -1 ) {
	return is_string( $nonce ) && hash_equals( wp_create_nonce( $action ), $nonce ) ? 1 : false;
}

function check_admin_referer( $action = -1, $query_arg = '_wpnonce' ) {
	$nonce = isset( $_REQUEST[ $query_arg ] ) ? $_REQUEST[ $query_arg ] : '';
	if ( ! wp_verify_nonce( $nonce, $action ) ) {
		wp_die( 'The link you followed has expired.', '', array( 'response' => 403 ) );
	}
	return 1;
}

function wp_nonce_url( $url, $action = -1, $name = '_wpnonce' ) {
	return str_replace( '&', '&amp;', add_query_arg( array( $name => wp_create_nonce( $action ) ), str_replace( '&amp;', '&', $url ) ) );
}

function wp_nonce_field( $action = -1, $name = '_wpnonce', $referer = true, $display = true ) {
	$field = '<input type="hidden" id="' . esc_attr( $name ) . '" name="' . esc_attr( $name ) . '" value="' . esc_attr( wp_create_nonce( $action ) ) . '" />';
	if ( $display ) {
		echo $field;
	}
	return $field;
}

// Admin screens.

function wp_add_privacy_policy_content( $plugin_name, $policy_text ) {
	$GLOBALS['harness']['privacy'][] = array(
		'plugin' => $plugin_name,
		'text'   => $policy_text,
	);
}

function get_current_screen() {
	return isset( $GLOBALS['harness_screen'] ) && null !== $GLOBALS['harness_screen'] ? (object) array( 'id' => $GLOBALS['harness_screen'] ) : null;
}

function add_meta_box( $id, $title, $callback, $screen = null, $context = 'advanced', $priority = 'default' ) {
	foreach ( (array) $screen as $one ) {
		$GLOBALS['harness_meta_boxes'][] = array( $id, $title, $callback, $one, $context );
		$GLOBALS['harness']['meta_boxes'][] = array(
			'id'       => $id,
			'title'    => $title,
			'screen'   => $one,
			'context'  => $context,
			'priority' => $priority,
		);
	}
}

function add_submenu_page( $parent, $page_title, $menu_title, $capability, $slug, $callback = '' ) {
	$GLOBALS['harness_submenu_callbacks'][ $slug ] = $callback;
	$GLOBALS['harness']['submenu_pages'][]         = array(
		'parent'     => $parent,
		'page_title' => $page_title,
		'menu_title' => $menu_title,
		'capability' => $capability,
		'slug'       => $slug,
	);
	return $parent . '_page_' . $slug;
}

function update_post_meta( $post_id, $key, $value ) {
	$GLOBALS['harness']['post_meta_writes'][] = array( $post_id, $key );
	return true;
}

// Scripts.

function wp_register_script( $handle, $src, $deps = array(), $ver = false, $in_footer = false ) {
	$GLOBALS['harness']['scripts'][ $handle ] = array(
		'src'  => $src,
		'deps' => $deps,
		'ver'  => $ver,
	);
	return true;
}

function wp_enqueue_script( $handle, $src = '', $deps = array(), $ver = false, $in_footer = false ) {
	$GLOBALS['harness']['enqueued'][ $handle ] = array(
		'src'       => $src,
		'ver'       => $ver,
		'in_footer' => $in_footer,
	);
}

function wp_set_script_translations( $handle, $domain, $path = '' ) {
	return true;
}

// Redirects, dying.

/** As WordPress's wp_safe_redirect: a host that is neither the site's nor in `allowed_redirect_hosts` goes to admin_url(). */
function wp_safe_redirect( $location, $status = 302 ) {
	$host    = parse_url( $location, PHP_URL_HOST );
	$allowed = (array) apply_filters( 'allowed_redirect_hosts', array( parse_url( home_url(), PHP_URL_HOST ) ), null === $host ? '' : $host );
	if ( null !== $host && ! in_array( strtolower( $host ), array_map( 'strtolower', $allowed ), true ) ) {
		$GLOBALS['harness']['unsafe_redirect'] = $location;
		$location                              = admin_url();
	}
	$GLOBALS['harness']['redirect'] = $location;
	if ( $GLOBALS['harness_serve'] ) {
		header( 'Location: ' . $location, true, $status );
	}
	return true;
}

function wp_die( $message = '', $title = '', $args = array() ) {
	$status                     = isset( $args['response'] ) ? $args['response'] : 500;
	$GLOBALS['harness']['died'] = array(
		'message' => $message,
		'status'  => $status,
	);
	if ( $GLOBALS['harness_serve'] ) {
		http_response_code( $status );
		echo '<!doctype html><title>Error</title><p class="wp-die-message">' . $message . '</p>';
	}
	exit;
}

// HTTP: real requests with PHP streams.

class WP_Error {
	private $code;
	private $message;

	public function __construct( $code = '', $message = '' ) {
		$this->code    = $code;
		$this->message = $message;
	}

	public function get_error_code() {
		return $this->code;
	}

	public function get_error_message() {
		return $this->message;
	}
}

function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}

/**
 * WordPress's wp_http_validate_url() (6.x, wp-includes/http.php), line for line: http(s) only, no user
 * information, a host that resolves to a public address unless it is the site's own host or the
 * `http_request_host_is_external` filter allows it, and ports 80, 443 and 8080 unless
 * `http_allowed_safe_ports` adds one.
 */
function wp_http_validate_url( $url ) {
	if ( ! is_string( $url ) || '' === $url || is_numeric( $url ) ) {
		return false;
	}
	if ( ! preg_match( '#^https?://#i', $url ) ) {
		return false;
	}
	$parsed_url = parse_url( $url );
	if ( ! $parsed_url || empty( $parsed_url['host'] ) ) {
		return false;
	}
	if ( isset( $parsed_url['user'] ) || isset( $parsed_url['pass'] ) ) {
		return false;
	}
	if ( false !== strpbrk( $parsed_url['host'], ':#?[]' ) ) {
		return false;
	}
	$parsed_home = parse_url( home_url() );
	$same_host   = isset( $parsed_home['host'] ) && strtolower( $parsed_home['host'] ) === strtolower( $parsed_url['host'] );
	$host        = trim( $parsed_url['host'], '.' );
	if ( ! $same_host ) {
		if ( preg_match( '#^(([1-9]?\d|1\d\d|25[0-5]|2[0-4]\d)\.){3}([1-9]?\d|1\d\d|25[0-5]|2[0-4]\d)$#', $host ) ) {
			$ip = $host;
		} else {
			$ip = gethostbyname( $host );
			if ( $ip === $host ) {
				return false;
			}
		}
		if ( $ip ) {
			$parts = array_map( 'intval', explode( '.', $ip ) );
			if ( 127 === $parts[0] || 10 === $parts[0] || 0 === $parts[0]
				|| ( 172 === $parts[0] && 16 <= $parts[1] && 31 >= $parts[1] )
				|| ( 192 === $parts[0] && 168 === $parts[1] )
			) {
				if ( ! apply_filters( 'http_request_host_is_external', false, $host, $url ) ) {
					return false;
				}
			}
		}
	}
	if ( empty( $parsed_url['port'] ) ) {
		return $url;
	}
	$port          = $parsed_url['port'];
	$allowed_ports = apply_filters( 'http_allowed_safe_ports', array( 80, 443, 8080 ), $host, $url );
	if ( is_array( $allowed_ports ) && in_array( $port, $allowed_ports, true ) ) {
		return $url;
	}
	if ( $parsed_home && $same_host && isset( $parsed_home['port'] ) && $parsed_home['port'] === $port ) {
		return $url;
	}
	return false;
}

/**
 * wp_safe_remote_request: the URL must pass wp_http_validate_url (WordPress answers "A valid URL was
 * not provided." otherwise), then a real request with PHP streams. There is no wp_remote_request:
 * the plugin must never make an unchecked request.
 */
function wp_safe_remote_request( $url, $args = array() ) {
	// Recorded without header values: the connect token is one of them.
	$GLOBALS['harness']['http'][] = array(
		'method'              => isset( $args['method'] ) ? $args['method'] : 'GET',
		'url'                 => $url,
		'timeout'             => isset( $args['timeout'] ) ? $args['timeout'] : null,
		'limit_response_size' => isset( $args['limit_response_size'] ) ? $args['limit_response_size'] : null,
		'redirection'         => isset( $args['redirection'] ) ? $args['redirection'] : null,
		'header_names'        => array_keys( isset( $args['headers'] ) ? $args['headers'] : array() ),
	);
	if ( false === wp_http_validate_url( $url ) ) {
		return new WP_Error( 'http_request_failed', 'A valid URL was not provided.' );
	}
	$headers = array();
	foreach ( isset( $args['headers'] ) ? $args['headers'] : array() as $name => $value ) {
		$headers[] = $name . ': ' . $value;
	}
	if ( isset( $args['user-agent'] ) ) {
		$headers[] = 'User-Agent: ' . $args['user-agent'];
	}
	$context = stream_context_create(
		array(
			'http' => array(
				'method'          => isset( $args['method'] ) ? $args['method'] : 'GET',
				'header'          => implode( "\r\n", $headers ),
				'content'         => isset( $args['body'] ) ? $args['body'] : '',
				'timeout'         => isset( $args['timeout'] ) ? (float) $args['timeout'] : 5.0,
				'ignore_errors'   => true,
				'follow_location' => 0,
			),
		)
	);
	$started = microtime( true );
	$body    = @file_get_contents( $url, false, $context );
	if ( false === $body ) {
		$error   = error_get_last();
		$message = $error ? $error['message'] : 'The request failed.';
		// As cURL words it (WordPress's transport): the connect or read timeout.
		if ( microtime( true ) - $started >= ( isset( $args['timeout'] ) ? (float) $args['timeout'] : 5.0 ) - 0.05 ) {
			$message = 'cURL error 28: Operation timed out after ' . (int) ( 1000 * ( microtime( true ) - $started ) ) . ' milliseconds with 0 bytes received';
		}
		return new WP_Error( 'http_request_failed', $message );
	}
	if ( isset( $args['limit_response_size'] ) && strlen( $body ) > $args['limit_response_size'] ) {
		$body = substr( $body, 0, $args['limit_response_size'] );
	}
	$response_headers = function_exists( 'http_get_last_response_headers' ) ? http_get_last_response_headers() : $http_response_header;
	$code             = 0;
	if ( ! empty( $response_headers ) && preg_match( '#^HTTP/\S+\s+(\d{3})#', $response_headers[0], $match ) ) {
		$code = (int) $match[1];
	}
	return array(
		'response' => array(
			'code'    => $code,
			'message' => '',
		),
		'body'     => $body,
	);
}

function wp_remote_retrieve_response_code( $response ) {
	return is_array( $response ) ? $response['response']['code'] : '';
}

function wp_remote_retrieve_body( $response ) {
	return is_array( $response ) ? $response['body'] : '';
}
