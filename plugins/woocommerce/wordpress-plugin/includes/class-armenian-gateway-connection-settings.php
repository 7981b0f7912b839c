<?php
/**
 * The store's connection as the gateway's settings page makes and shows it: registering the store
 * with the connector when the settings are saved, the REST API key pasted by hand, and the
 * connection's state above the settings form.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * The connection part of the settings page. The pasted key is sent once to the connector and never
 * kept in WordPress.
 */
final class Armenian_Gateway_Connection_Settings {

	/**
	 * Option holding the outcome of the last connect attempt, shown once on the settings page.
	 */
	const CONNECT_RESULT_OPTION = 'armenian_gateway_connect_result';

	/**
	 * The posted names of the manual key's two fields (never saved in WordPress).
	 */
	const MANUAL_KEY_FIELD    = 'armenian_gateway_consumer_key';
	const MANUAL_SECRET_FIELD = 'armenian_gateway_consumer_secret';

	/**
	 * The gateway whose settings the connector calls are made with.
	 *
	 * @var Armenian_Gateway
	 */
	private $gateway;

	/**
	 * The connection part of the gateway's settings page.
	 *
	 * @param Armenian_Gateway $gateway The gateway.
	 */
	public function __construct( Armenian_Gateway $gateway ) {
		$this->gateway = $gateway;
	}

	/**
	 * The consumer key and secret pasted in the manual-key fields, removed from the request so that
	 * nothing saves them. Null when both are empty.
	 *
	 * @return array|null `{consumer_key, consumer_secret}`, or `{error}` when only one was pasted.
	 */
	public function take_posted_manual_key() {
		// phpcs:disable WordPress.Security.NonceVerification.Missing -- WooCommerce checked the settings form's nonce before saving.
		$key    = isset( $_POST[ self::MANUAL_KEY_FIELD ] ) ? trim( sanitize_text_field( wp_unslash( $_POST[ self::MANUAL_KEY_FIELD ] ) ) ) : '';
		$secret = isset( $_POST[ self::MANUAL_SECRET_FIELD ] ) ? trim( sanitize_text_field( wp_unslash( $_POST[ self::MANUAL_SECRET_FIELD ] ) ) ) : '';
		unset( $_POST[ self::MANUAL_KEY_FIELD ], $_POST[ self::MANUAL_SECRET_FIELD ] );
		// phpcs:enable
		if ( '' === $key && '' === $secret ) {
			return null;
		}
		if ( '' === $key || '' === $secret ) {
			return array( 'error' => __( 'Paste both the consumer key and the consumer secret of the REST API key.', 'armenian-payment-gateway' ) );
		}
		return array(
			'consumer_key'    => $key,
			'consumer_secret' => $secret,
		);
	}

	/**
	 * `POST /v1/connection/credentials` with a key the shop owner made: the connector tests it against
	 * the store before it accepts it. Only the outcome is kept (for the settings page), never the key.
	 *
	 * @param array $manual_key The pasted key, or `{error}`.
	 */
	public function send_manual_key( array $manual_key ) {
		$saved = get_option( self::CONNECT_RESULT_OPTION );
		$saved = is_array( $saved ) ? $saved : array();
		if ( isset( $saved['message'] ) ) {
			return;
		}
		if ( isset( $manual_key['error'] ) ) {
			$saved['credentials'] = array(
				'ok'      => false,
				'message' => $manual_key['error'],
			);
		} else {
			$result = $this->gateway->connector()->request( 'POST', '/v1/connection/credentials', $manual_key, Armenian_Gateway_Connector::ACTION_TIMEOUT );
			if ( $result->is_ok() ) {
				$saved['connection']  = $result->body;
				$saved['credentials'] = array(
					'ok'      => true,
					'message' => __( 'The REST API key works: the connector will use it to update your orders.', 'armenian-payment-gateway' ),
				);
			} else {
				Armenian_Gateway_Connector::log( 'warning', 'The connector refused the REST API key pasted in the settings', $result );
				$saved['credentials'] = array(
					'ok'      => false,
					/* translators: %s: the connector's error message. */
					'message' => sprintf( __( 'The REST API key was not accepted: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ),
				);
			}
		}
		update_option( self::CONNECT_RESULT_OPTION, $saved, false );
	}

	/**
	 * `POST /v1/connections` with the store's URL; the outcome is kept for the settings page.
	 */
	public function connect_store() {
		if ( ! $this->gateway->is_configured() ) {
			delete_option( self::CONNECT_RESULT_OPTION );
			return;
		}
		$result = $this->gateway->connector()->request(
			'POST',
			'/v1/connections',
			array(
				'store_url'  => home_url(),
				'return_url' => admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Armenian_Gateway::GATEWAY_ID ),
			),
			Armenian_Gateway_Connector::ACTION_TIMEOUT
		);
		if ( $result->is_ok() ) {
			delete_option( self::CONNECT_RESULT_OPTION );
			return;
		}
		Armenian_Gateway_Connector::log( 'warning', 'Connecting the store failed', $result );
		update_option(
			self::CONNECT_RESULT_OPTION,
			array(
				'error'   => $result->error,
				'message' => Armenian_Gateway_Connector::admin_error_message( $result ),
			),
			false
		);
	}

	/**
	 * Shows the outcome of the last save, then the connection as the connector sees it now
	 * (`GET /v1/connection`, which asks the gateway): "Connected" only when it is active.
	 */
	public function render_status() {
		if ( ! $this->gateway->is_configured() ) {
			$this->render_notice( 'info', __( 'Paste your connect token and the connector URL, then save the settings to connect this store.', 'armenian-payment-gateway' ) );
			return;
		}

		$saved = get_option( self::CONNECT_RESULT_OPTION );
		if ( is_array( $saved ) ) {
			delete_option( self::CONNECT_RESULT_OPTION );
		}
		if ( is_array( $saved ) && isset( $saved['message'] ) ) {
			/* translators: %s: the connector's error message. */
			$this->render_notice( 'error', sprintf( __( 'The connector refused to connect this store: %s', 'armenian-payment-gateway' ), (string) $saved['message'] ) );
			return;
		}
		if ( is_array( $saved ) && isset( $saved['credentials'] ) && is_array( $saved['credentials'] ) ) {
			$this->render_notice( empty( $saved['credentials']['ok'] ) ? 'error' : 'success', (string) $saved['credentials']['message'] );
		}

		$result = $this->gateway->connector()->page_request( 'GET', '/v1/connection' );
		if ( $result->is_error( 'connection_not_found' ) ) {
			$this->render_notice( 'info', __( 'This store is not connected yet: save the settings to connect it.', 'armenian-payment-gateway' ) );
			return;
		}
		if ( $result->is_error( 'invalid_connect_token' ) ) {
			$this->render_notice( 'error', Armenian_Gateway_Health::token_revoked_message() );
			return;
		}
		if ( ! $result->is_ok() ) {
			/* translators: %s: the connector's error message. */
			$this->render_notice( 'error', sprintf( __( 'Could not read the connection: %s', 'armenian-payment-gateway' ), Armenian_Gateway_Connector::admin_error_message( $result ) ) );
			return;
		}
		$this->render_connection( $result->body );
	}

	/**
	 * One connection object (`GET /v1/connection`).
	 *
	 * @param array $connection The connector's connection object.
	 */
	private function render_connection( array $connection ) {
		$status       = Armenian_Gateway_Response::text_of( $connection, 'status' );
		$environment  = Armenian_Gateway_Response::text_of( $connection, 'environment' );
		$key_exchange = Armenian_Gateway_Response::array_of( $connection, 'key_exchange' );
		$problems     = Armenian_Gateway_Response::strings_of( $key_exchange, 'problems' );

		echo '<div class="armenian-gateway-connection">';
		if ( 'active' === $status ) {
			$this->render_notice( 'success', __( 'Connected', 'armenian-payment-gateway' ) );
		} elseif ( 'awaiting_keys' === $status ) {
			echo '<div class="notice notice-warning inline"><p>';
			echo esc_html__( 'One step left: let the connector update your orders. Open the link, approve the access, and you will come back here.', 'armenian-payment-gateway' );
			echo '</p>';
			$approval = Armenian_Gateway_Connection_Actions::approval_url( isset( $connection['authorize_url'] ) ? $connection['authorize_url'] : '' );
			if ( '' !== $approval ) {
				echo '<p><a class="button button-primary" href="' . esc_url( $approval ) . '">';
				echo esc_html__( 'Connect WooCommerce', 'armenian-payment-gateway' );
				echo '</a></p>';
			} elseif ( isset( $connection['authorize_url'] ) ) {
				echo '<p>' . esc_html__( 'The connector sent an approval link that is not this store\'s WooCommerce approval page, so it is not shown. Contact whoever runs the connector.', 'armenian-payment-gateway' ) . '</p>';
			}
			echo '</div>';
		} elseif ( 'store_unauthorized' === $status ) {
			echo '<div class="notice notice-error inline"><p>' . esc_html( Armenian_Gateway_Health::store_unauthorized_message() ) . '</p>';
			echo '<p><a class="button button-primary" href="' . esc_url( Armenian_Gateway_Connection_Actions::reconnect_url() ) . '">' . esc_html__( 'Reconnect', 'armenian-payment-gateway' ) . '</a></p></div>';
		} elseif ( 'token_revoked' === $status ) {
			$this->render_notice( 'error', Armenian_Gateway_Health::token_revoked_message() );
		} else {
			/* translators: %s: the connection status. */
			$this->render_notice( 'warning', sprintf( __( 'Connection status: %s', 'armenian-payment-gateway' ), $status ) );
		}

		if ( 'unreachable' === Armenian_Gateway_Response::text_of( Armenian_Gateway_Response::array_of( $connection, 'health' ), 'gateway' ) ) {
			$this->render_notice( 'warning', Armenian_Gateway_Health::gateway_unreachable_message() );
		}

		if ( 'test' === $environment || 'live' === $environment ) {
			$label = 'test' === $environment ? __( 'test (no real money is taken)', 'armenian-payment-gateway' ) : __( 'live', 'armenian-payment-gateway' );
			/* translators: %s: test or live. */
			echo '<p>' . esc_html( sprintf( __( 'Environment: %s', 'armenian-payment-gateway' ), $label ) ) . '</p>';
			if ( ( 'test' === $environment ) !== $this->gateway->is_test_mode() ) {
				$this->render_notice(
					'warning',
					'test' === $environment
						? __( 'Your connect token is a test token, but test mode is off: buyers will not be told that payments are test payments and no real money will be taken.', 'armenian-payment-gateway' )
						: __( 'Your connect token is a live token, but test mode is on: payments take real money although buyers are told they are test payments.', 'armenian-payment-gateway' )
				);
			}
		}

		$origin = get_option( Armenian_Gateway::CHECKOUT_ORIGIN_OPTION, '' );
		if ( is_string( $origin ) && '' !== $origin ) {
			/* translators: %s: the origin of the gateway's payment page, e.g. https://pay.example.am. */
			echo '<p class="armenian-gateway-checkout-origin">' . esc_html( sprintf( __( 'Buyers pay on %s (a new connect token or connector URL lets the next checkout learn the payment page again).', 'armenian-payment-gateway' ), $origin ) ) . '</p>';
		}

		if ( 'active' !== $status && 'token_revoked' !== $status ) {
			$callback = Armenian_Gateway_Response::text_of( $key_exchange, 'callback_url' );
			$this->render_key_exchange_problems( $problems, $callback );
			$this->render_manual_key_fields( ! empty( $problems ) || 'store_unauthorized' === $status );
		}

		echo '<p><a class="button armenian-gateway-remove" href="' . esc_url( Armenian_Gateway_Connection_Actions::remove_url() ) . '" data-armenian-gateway-confirm="' . esc_attr__( 'Remove this store\'s connection? The connector stops updating your orders and forgets the store\'s keys. Checkout stops working until you save the settings again.', 'armenian-payment-gateway' ) . '">';
		echo esc_html__( 'Remove connection', 'armenian-payment-gateway' );
		echo '</a></p>';
		echo '</div>';
	}

	/**
	 * Why WooCommerce cannot deliver the keys to this connector (`key_exchange.problems`), with the
	 * way out: the manual key.
	 *
	 * @param string[] $problems     Problem codes.
	 * @param string   $callback_url The connector's key exchange callback.
	 */
	private function render_key_exchange_problems( array $problems, $callback_url ) {
		if ( empty( $problems ) ) {
			return;
		}
		$reasons = array(
			'callback_not_https'        => __( 'The address is not https: WooCommerce sends keys only over https.', 'armenian-payment-gateway' ),
			'callback_port_not_allowed' => __( 'The address\'s port is not 443, 80 or 8080, the only ports WooCommerce sends keys to.', 'armenian-payment-gateway' ),
			'callback_host_not_public'  => __( 'The address\'s host is localhost or a private address, which WooCommerce refuses.', 'armenian-payment-gateway' ),
		);
		echo '<div class="notice notice-warning inline armenian-gateway-key-exchange"><p>';
		/* translators: %s: the connector's callback URL. */
		echo esc_html( sprintf( __( '"Connect WooCommerce" cannot work with this connector: WooCommerce would have to send the keys to %s, and it will not.', 'armenian-payment-gateway' ), $callback_url ) );
		echo '</p><ul>';
		foreach ( $problems as $problem ) {
			$text = isset( $reasons[ $problem ] ) ? $reasons[ $problem ] : (string) $problem;
			echo '<li>' . esc_html( $text ) . '</li>';
		}
		echo '</ul><p>' . esc_html__( 'Connect with a REST API key you create yourself instead (below), or ask the connector\'s operator for a public https address.', 'armenian-payment-gateway' ) . '</p></div>';
	}

	/**
	 * The manual-key route: two fields sent once to `POST /v1/connection/credentials` when the
	 * settings are saved, never kept in WordPress.
	 *
	 * @param bool $open Show the fields unfolded.
	 */
	private function render_manual_key_fields( $open ) {
		echo '<details class="armenian-gateway-manual-key"' . ( $open ? ' open' : '' ) . '><summary>' . esc_html__( 'Connect with a REST API key you create yourself', 'armenian-payment-gateway' ) . '</summary>';
		echo '<p>' . esc_html__( 'In WooCommerce > Settings > Advanced > REST API, click "Add key", choose an administrator, set Permissions to Read/Write and generate the key. Paste both values here and click "Save changes": they are sent once to the connector, which tests them against your store, and are not kept in WordPress.', 'armenian-payment-gateway' ) . '</p>';
		echo '<p><label for="' . esc_attr( self::MANUAL_KEY_FIELD ) . '">' . esc_html__( 'Consumer key', 'armenian-payment-gateway' ) . '</label><br />';
		echo '<input type="text" class="regular-text" autocomplete="off" id="' . esc_attr( self::MANUAL_KEY_FIELD ) . '" name="' . esc_attr( self::MANUAL_KEY_FIELD ) . '" value="" placeholder="ck_" /></p>';
		echo '<p><label for="' . esc_attr( self::MANUAL_SECRET_FIELD ) . '">' . esc_html__( 'Consumer secret', 'armenian-payment-gateway' ) . '</label><br />';
		echo '<input type="password" class="regular-text" autocomplete="new-password" id="' . esc_attr( self::MANUAL_SECRET_FIELD ) . '" name="' . esc_attr( self::MANUAL_SECRET_FIELD ) . '" value="" placeholder="cs_" /></p>';
		echo '</details>';
	}

	/**
	 * An inline admin notice.
	 *
	 * @param string $type    info, success, warning or error.
	 * @param string $message Plain text.
	 */
	private function render_notice( $type, $message ) {
		echo '<div class="notice notice-' . esc_attr( $type ) . ' inline"><p>' . esc_html( $message ) . '</p></div>';
	}
}
