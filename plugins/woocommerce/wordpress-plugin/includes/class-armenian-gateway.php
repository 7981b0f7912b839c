<?php
/**
 * The WooCommerce payment gateway: sends the buyer to the hosted checkout through the connector,
 * reads the payment back when the buyer returns, and refunds from the WooCommerce admin.
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

/**
 * Armenian Payment Gateway for WooCommerce.
 *
 * The plugin never marks an order paid itself: the connector does it through the WooCommerce REST API
 * once the gateway has confirmed the payment (on the gateway's webhook, or when the return handler
 * reads the payment back).
 */
class Armenian_Gateway extends WC_Payment_Gateway {

	/**
	 * The gateway id, also the Blocks payment method name.
	 */
	const GATEWAY_ID = 'armenian_gateway';

	/**
	 * The WooCommerce API endpoint of the return handler (`?wc-api=wc_armenian_gateway`).
	 */
	const RETURN_ENDPOINT = 'wc_armenian_gateway';

	/**
	 * Order meta key holding the gateway payment uuid.
	 */
	const META_PAYMENT_UUID = '_armenian_gateway_payment_uuid';

	/**
	 * Option holding the outcome of the last connect attempt, shown once on the settings page.
	 */
	const CONNECT_RESULT_OPTION = 'armenian_gateway_connect_result';

	/**
	 * Option holding the origin of the gateway's payment page (`https://host[:port]`) buyers are sent to.
	 */
	const CHECKOUT_ORIGIN_OPTION = 'armenian_gateway_checkout_origin';

	/**
	 * The posted names of the manual key's two fields (never saved in WordPress).
	 */
	const MANUAL_KEY_FIELD    = 'armenian_gateway_consumer_key';
	const MANUAL_SECRET_FIELD = 'armenian_gateway_consumer_secret';

	/**
	 * Seconds a call to the connector may take.
	 */
	const TIMEOUT = Armenian_Gateway_Connector::TIMEOUT;

	/**
	 * Features the gateway supports.
	 */
	const SUPPORTED_FEATURES = array( 'products', 'refunds' );

	/**
	 * WP-Cron hook that sends a refund whose answer never arrived again.
	 */
	const RESEND_REFUND_HOOK = 'armenian_gateway_resend_refund';

	/**
	 * Attempts of a refund resend before the owner is asked to look (about a week of tries).
	 */
	const RESEND_REFUND_ATTEMPTS = 40;

	/**
	 * WP-Cron hook that asks the connector again to cancel a cancelled order's payment.
	 */
	const CANCEL_PAYMENT_HOOK = 'armenian_gateway_cancel_payment';

	/**
	 * Seconds a cancellation waits for the connector within the request that cancelled the order.
	 */
	const CANCEL_TIMEOUT = 5;

	/**
	 * Sets up the gateway and its hooks.
	 */
	public function __construct() {
		$this->id                 = self::GATEWAY_ID;
		$this->method_title       = __( 'Armenian Payment Gateway', 'armenian-payment-gateway' );
		$this->method_description = __( 'Armenian bank cards and wallets on a secure hosted payment page. Orders are marked paid by the connector once the payment is confirmed; refunds are sent from the order screen.', 'armenian-payment-gateway' );
		$this->supports           = self::SUPPORTED_FEATURES;

		$this->init_form_fields();
		$this->init_settings();

		$this->title       = $this->get_option( 'title' );
		$this->description = $this->get_option( 'description' );
		$this->has_fields  = $this->is_test_mode();

		add_action( 'woocommerce_update_options_payment_gateways_' . $this->id, array( $this, 'process_admin_options' ) );
		add_action( 'woocommerce_api_' . self::RETURN_ENDPOINT, array( $this, 'handle_return' ) );
		add_action( 'woocommerce_thankyou_' . $this->id, array( $this, 'thankyou_notice' ) );
	}

	/**
	 * The settings the shop owner fills in.
	 */
	public function init_form_fields() {
		$this->form_fields = array(
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
	 * Cleans the connect token: a pasted token may carry spaces or line breaks.
	 *
	 * @param string $key   Field key.
	 * @param string $value Posted value.
	 * @return string
	 */
	public function validate_connect_token_field( $key, $value ) {
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
	 * @param string $key  Field key.
	 * @param array  $data Field definition.
	 * @return string
	 */
	public function generate_connect_token_html( $key, $data ) {
		$field = $this->get_field_key( $key );
		$saved = '' !== $this->connect_token();
		ob_start();
		echo '<tr valign="top"><th scope="row" class="titledesc"><label for="' . esc_attr( $field ) . '">' . esc_html( $data['title'] ) . '</label></th><td class="forminp"><fieldset>';
		echo '<input class="input-text regular-input" type="password" name="' . esc_attr( $field ) . '" id="' . esc_attr( $field ) . '" value="" autocomplete="new-password" placeholder="' . esc_attr( $saved ? __( 'Saved (hidden). Paste a new token to replace it.', 'armenian-payment-gateway' ) : '' ) . '" />';
		echo '<p class="description">' . esc_html( $data['description'] ) . '</p></fieldset></td></tr>';
		return (string) ob_get_clean();
	}

	/**
	 * Keeps an http(s) connector address without its trailing slash.
	 *
	 * @param string $key   Field key.
	 * @param string $value Posted value.
	 * @return string
	 */
	public function validate_connector_url_field( $key, $value ) {
		$value = trim( wp_unslash( is_scalar( $value ) ? (string) $value : '' ) );
		if ( '' === $value ) {
			return '';
		}
		// A bare host is an https address (esc_url_raw would make it http://).
		if ( ! preg_match( '#^[a-z][a-z0-9+.-]*:#i', $value ) ) {
			$value = 'https://' . $value;
		}
		$url     = esc_url_raw( $value, array( 'http', 'https' ) );
		$problem = '' === $url ? __( 'The connector URL must be a full address starting with https://.', 'armenian-payment-gateway' ) : Armenian_Gateway_Connector::url_problem( $url );
		if ( '' !== $problem ) {
			$message  = $problem;
			$previous = (string) $this->get_option( 'connector_url', '' );
			if ( '' !== $previous ) {
				/* translators: %s: the connector URL kept. */
				$message .= ' ' . sprintf( __( 'The previous connector URL (%s) is kept.', 'armenian-payment-gateway' ), $previous );
			}
			if ( class_exists( 'WC_Admin_Settings' ) ) {
				WC_Admin_Settings::add_error( $message );
			} else {
				$this->add_error( $message );
			}
			return $previous;
		}
		return untrailingslashit( $url );
	}

	/**
	 * Saves the settings, then registers this store with the connector so the shop owner can approve
	 * the connection from the settings page.
	 *
	 * @return bool Whether the settings were saved.
	 */
	public function process_admin_options() {
		// Saving (and showing the page after it) waits for the connector at most this long in all.
		Armenian_Gateway_Connector::limit_to( Armenian_Gateway_Connector::ACTION_TIMEOUT );
		$manual_key = $this->take_posted_manual_key();
		$before     = array( $this->connect_token(), $this->connector_url() );
		$saved      = parent::process_admin_options();
		if ( array( $this->connect_token(), $this->connector_url() ) !== $before ) {
			// Another token or connector may pay through another gateway: the next checkout learns its payment page.
			delete_option( self::CHECKOUT_ORIGIN_OPTION );
		}
		Armenian_Gateway_Health::forget();
		Armenian_Gateway_Health::unblock_payments();
		$this->connect_store();
		if ( null !== $manual_key ) {
			$this->send_manual_key( $manual_key );
		}
		return $saved;
	}

	/**
	 * The consumer key and secret pasted in the manual-key fields, removed from the request so that
	 * nothing saves them. Null when both are empty.
	 *
	 * @return array|null `{consumer_key, consumer_secret}`, or `{error}` when only one was pasted.
	 */
	private function take_posted_manual_key() {
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
	private function send_manual_key( array $manual_key ) {
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
			$result = $this->call_connector( 'POST', '/v1/connection/credentials', $manual_key, Armenian_Gateway_Connector::ACTION_TIMEOUT );
			if ( $result->is_ok() ) {
				$saved['connection']  = $result->body;
				$saved['credentials'] = array(
					'ok'      => true,
					'message' => __( 'The REST API key works: the connector will use it to update your orders.', 'armenian-payment-gateway' ),
				);
			} else {
				$this->log( 'warning', 'The connector refused the REST API key pasted in the settings', $result );
				$saved['credentials'] = array(
					'ok'      => false,
					/* translators: %s: the connector's error message. */
					'message' => sprintf( __( 'The REST API key was not accepted: %s', 'armenian-payment-gateway' ), $this->admin_error_message( $result ) ),
				);
			}
		}
		update_option( self::CONNECT_RESULT_OPTION, $saved, false );
	}

	/**
	 * `POST /v1/connections` with the store's URL; the outcome is kept for the settings page.
	 */
	private function connect_store() {
		if ( ! $this->is_configured() ) {
			delete_option( self::CONNECT_RESULT_OPTION );
			return;
		}
		$result = $this->call_connector(
			'POST',
			'/v1/connections',
			array(
				'store_url'  => home_url(),
				'return_url' => admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . $this->id ),
			),
			Armenian_Gateway_Connector::ACTION_TIMEOUT
		);
		if ( $result->is_ok() ) {
			delete_option( self::CONNECT_RESULT_OPTION );
			return;
		}
		$this->log( 'warning', 'Connecting the store failed', $result );
		update_option(
			self::CONNECT_RESULT_OPTION,
			array(
				'error'   => $result->error,
				'message' => $this->admin_error_message( $result ),
			),
			false
		);
	}

	/**
	 * The settings page: the connection's state above the settings form.
	 */
	public function admin_options() {
		$this->render_connection_status();
		parent::admin_options();
	}

	/**
	 * Shows the outcome of the last save, then the connection as the connector sees it now
	 * (`GET /v1/connection`, which asks the gateway): "Connected" only when it is active.
	 */
	private function render_connection_status() {
		if ( ! $this->is_configured() ) {
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

		$result = $this->connector()->page_request( 'GET', '/v1/connection' );
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
			$this->render_notice( 'error', sprintf( __( 'Could not read the connection: %s', 'armenian-payment-gateway' ), $this->admin_error_message( $result ) ) );
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
			$approval = Armenian_Gateway_Health::approval_url( isset( $connection['authorize_url'] ) ? $connection['authorize_url'] : '' );
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
			echo '<p><a class="button button-primary" href="' . esc_url( Armenian_Gateway_Health::reconnect_url() ) . '">' . esc_html__( 'Reconnect', 'armenian-payment-gateway' ) . '</a></p></div>';
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
			if ( ( 'test' === $environment ) !== $this->is_test_mode() ) {
				$this->render_notice(
					'warning',
					'test' === $environment
						? __( 'Your connect token is a test token, but test mode is off: buyers will not be told that payments are test payments and no real money will be taken.', 'armenian-payment-gateway' )
						: __( 'Your connect token is a live token, but test mode is on: payments take real money although buyers are told they are test payments.', 'armenian-payment-gateway' )
				);
			}
		}

		$origin = get_option( self::CHECKOUT_ORIGIN_OPTION, '' );
		if ( is_string( $origin ) && '' !== $origin ) {
			/* translators: %s: the origin of the gateway's payment page, e.g. https://pay.example.am. */
			echo '<p class="armenian-gateway-checkout-origin">' . esc_html( sprintf( __( 'Buyers pay on %s (a new connect token or connector URL lets the next checkout learn the payment page again).', 'armenian-payment-gateway' ), $origin ) ) . '</p>';
		}

		if ( 'active' !== $status && 'token_revoked' !== $status ) {
			$callback = Armenian_Gateway_Response::text_of( $key_exchange, 'callback_url' );
			$this->render_key_exchange_problems( $problems, $callback );
			$this->render_manual_key_fields( ! empty( $problems ) || 'store_unauthorized' === $status );
		}

		echo '<p><a class="button armenian-gateway-remove" href="' . esc_url( Armenian_Gateway_Health::remove_url() ) . '" data-armenian-gateway-confirm="' . esc_attr__( 'Remove this store\'s connection? The connector stops updating your orders and forgets the store\'s keys. Checkout stops working until you save the settings again.', 'armenian-payment-gateway' ) . '">';
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

	/**
	 * The description at checkout, with a notice while test mode is on.
	 */
	public function payment_fields() {
		$description = $this->get_description();
		if ( '' !== (string) $description ) {
			echo wp_kses_post( wpautop( wptexturize( $description ) ) );
		}
		if ( $this->is_test_mode() ) {
			echo '<p class="armenian-gateway-test-mode">' . esc_html__( 'Test mode: this is a test payment, no real money is taken.', 'armenian-payment-gateway' ) . '</p>';
		}
	}

	/**
	 * Offered at checkout only when it is set up (a connector URL this site may call) and the store
	 * sells in AMD. Armenian_Gateway_Blocks::is_active() decides the same for the Checkout block.
	 *
	 * @return bool
	 */
	public function is_available() {
		if ( ! parent::is_available() || ! $this->is_configured() || '' !== Armenian_Gateway_Connector::url_problem( $this->connector_url() ) ) {
			return false;
		}
		// A revoked token or a refused store key: every try would leave a pending order nobody can pay.
		if ( Armenian_Gateway_Health::payments_blocked() ) {
			return false;
		}
		return 'AMD' === get_woocommerce_currency();
	}

	/**
	 * Starts (or resumes) the order's payment at the connector and sends the buyer to the hosted checkout.
	 *
	 * @param int $order_id The order id.
	 * @return array
	 */
	public function process_payment( $order_id ) {
		$order = wc_get_order( $order_id );
		if ( ! $order ) {
			wc_add_notice( __( 'We could not find your order. Please try again.', 'armenian-payment-gateway' ), 'error' );
			return array( 'result' => 'failure' );
		}

		$result = $this->call_connector(
			'POST',
			$this->order_path( $order ) . '/payment',
			array(
				'return_url' => $this->return_handler_url( $order ),
				'cancel_url' => $order->get_cancel_order_url_raw(),
				'order'      => $this->order_snapshot( $order ),
			)
		);

		if ( $result->is_error( 'order_already_paid' ) ) {
			return array(
				'result'   => 'success',
				'redirect' => $this->get_return_url( $order ),
			);
		}

		$checkout_url = $result->is_ok() ? $result->field( 'checkout_url' ) : '';
		if ( $result->is_ok() && ! self::checkout_url_allowed( $checkout_url ) ) {
			$result = Armenian_Gateway_Response::failure( $result->status, Armenian_Gateway_Response::INVALID_RESPONSE, 'The connector answered a checkout_url that is not the gateway\'s https payment page: ' . $checkout_url );
		}
		if ( ! $result->is_ok() ) {
			$this->log( 'error', sprintf( 'Starting the payment of order %d failed', $order->get_id() ), $result );
			if ( $result->is_error( 'store_unauthorized' ) ) {
				// The shop owner hears of it on the next admin page, and no other buyer is offered the method.
				Armenian_Gateway_Health::block_payments( 'store_unauthorized' );
			} elseif ( $result->is_error( 'invalid_connect_token' ) ) {
				Armenian_Gateway_Health::block_payments( 'token_revoked' );
			}
			wc_add_notice( $this->buyer_payment_error( $result ), 'error' );
			return array( 'result' => 'failure' );
		}

		$payment_uuid = $result->field( 'payment_uuid' );
		if ( 1 === preg_match( '/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/', $payment_uuid ) ) {
			$order->update_meta_data( self::META_PAYMENT_UUID, $payment_uuid );
			// WooCommerce's own field for the gateway's payment id (shown on the order, searchable).
			$order->set_transaction_id( $payment_uuid );
			$order->save();
		}

		return array(
			'result'   => 'success',
			'redirect' => $checkout_url,
		);
	}

	/**
	 * True for a checkout URL the buyer may be sent to: an https URL (http only with
	 * ARMENIAN_GATEWAY_ALLOW_LOCAL_CONNECTOR, for a development gateway) of the gateway's payment page
	 * (`/checkout/...`), on the origin of the first one this store accepted since its connect token or
	 * connector URL last changed (kept in CHECKOUT_ORIGIN_OPTION and shown on the settings page).
	 *
	 * @param string $url The connector's `checkout_url`.
	 * @return bool
	 */
	public static function checkout_url_allowed( $url ) {
		$parts = wp_parse_url( (string) $url );
		if ( ! is_array( $parts ) || empty( $parts['host'] ) || empty( $parts['scheme'] ) || isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
			return false;
		}
		$scheme = strtolower( (string) $parts['scheme'] );
		if ( 'https' !== $scheme && ! ( 'http' === $scheme && Armenian_Gateway_Connector::local_connector_allowed() ) ) {
			return false;
		}
		if ( ! isset( $parts['path'] ) || 0 !== strpos( (string) $parts['path'], '/checkout/' ) ) {
			return false;
		}
		$origin = $scheme . '://' . strtolower( (string) $parts['host'] ) . ( isset( $parts['port'] ) ? ':' . (int) $parts['port'] : '' );
		$pinned = get_option( self::CHECKOUT_ORIGIN_OPTION, '' );
		if ( ! is_string( $pinned ) || '' === $pinned ) {
			update_option( self::CHECKOUT_ORIGIN_OPTION, $origin, false );
			return true;
		}
		return $pinned === $origin;
	}

	/**
	 * What the connector needs of the order, sent with the payment so that it does not read the order
	 * back from the store while this request holds the store's PHP worker.
	 *
	 * @param WC_Order $order The order.
	 * @return array
	 */
	private function order_snapshot( $order ) {
		$created = $order->get_date_created();
		$name    = trim( $order->get_billing_first_name() . ' ' . $order->get_billing_last_name() );
		$email   = (string) $order->get_billing_email();
		return array(
			'number'         => (string) $order->get_order_number(),
			'total'          => number_format( (float) $order->get_total(), 2, '.', '' ),
			'currency'       => (string) $order->get_currency(),
			'status'         => (string) $order->get_status(),
			'created_at'     => $created ? gmdate( 'Y-m-d\TH:i:s\Z', $created->getTimestamp() ) : null,
			'customer_email' => '' !== $email ? $email : null,
			'customer_name'  => '' !== $name ? $name : null,
			'payment_method' => (string) $order->get_payment_method(),
		);
	}

	/**
	 * The buyer is back from the hosted checkout: reads the payment and sends the buyer to the
	 * thank-you page, or back to the payment page to try again after a decline or an expiry.
	 */
	public function handle_return() {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the order key authenticates the buyer's return.
		// The plugin's own names (apg_order, apg_key) cannot meet a parameter the gateway adds; order_id
		// and key are read only from return links made before the plugin used its own names.
		$order_param = isset( $_GET['apg_order'] ) ? 'apg_order' : 'order_id';
		$key_param   = isset( $_GET['apg_key'] ) ? 'apg_key' : 'key';
		$order_id    = isset( $_GET[ $order_param ] ) ? absint( wp_unslash( $_GET[ $order_param ] ) ) : 0;
		$key         = isset( $_GET[ $key_param ] ) ? sanitize_text_field( wp_unslash( $_GET[ $key_param ] ) ) : '';
		// phpcs:enable

		$order = $order_id > 0 ? wc_get_order( $order_id ) : false;
		if ( ! $order || '' === $key || ! hash_equals( (string) $order->get_order_key(), $key ) ) {
			wp_die(
				esc_html__( 'This payment link is not valid.', 'armenian-payment-gateway' ),
				esc_html__( 'Payment', 'armenian-payment-gateway' ),
				array( 'response' => 400 )
			);
			return;
		}

		wp_safe_redirect( $this->return_destination( $order ) );
		exit;
	}

	/**
	 * `woocommerce_thankyou_armenian_gateway`: on the order received page, while the order is not paid
	 * yet, says so. The hook prints in classic themes (checkout/thankyou.php) and in block themes alike:
	 * WooCommerce's Order Confirmation "Additional Information" block renders
	 * `woocommerce_thankyou_{payment method}` for a visitor allowed to see the order; a notice queued
	 * with `wc_add_notice` is never shown there.
	 *
	 * @param int $order_id The order.
	 */
	public function thankyou_notice( $order_id ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || $order instanceof WC_Order_Refund || $order->has_status( array( 'processing', 'completed', 'refunded' ) ) ) {
			return;
		}
		echo '<div class="woocommerce-info" role="status">' . esc_html__( 'We could not confirm your payment yet. If it went through, your order will be updated shortly and you will receive a confirmation.', 'armenian-payment-gateway' ) . '</div>';
	}

	/**
	 * Where the returning buyer goes, from the payment's state at the gateway.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private function return_destination( $order ) {
		$result = $this->call_connector( 'GET', $this->order_path( $order ) . '/payment' );
		if ( ! $result->is_ok() ) {
			// The order received page says the payment is not confirmed yet (thankyou_notice).
			$this->log( 'warning', sprintf( 'Reading the payment of order %d failed', $order->get_id() ), $result );
			return $this->get_return_url( $order );
		}
		if ( ! empty( $result->body['paid'] ) ) {
			return $this->get_return_url( $order );
		}

		$status = $result->field( 'status' );
		switch ( $status ) {
			case 'completed':
			case 'refunded':
			case 'pending':
			case 'processing':
				return $this->get_return_url( $order );
			case 'failed':
				wc_add_notice( __( 'The payment was declined. Please try again, or use another card or payment method.', 'armenian-payment-gateway' ), 'error' );
				return $order->get_checkout_payment_url();
			case 'expired':
				wc_add_notice( __( 'The payment expired before it was completed. Please try again.', 'armenian-payment-gateway' ), 'error' );
				return $order->get_checkout_payment_url();
			default:
				$this->log( 'warning', sprintf( 'The payment of order %1$d has an unknown status "%2$s"', $order->get_id(), $status ), null );
				return $this->get_return_url( $order );
		}
	}

	/**
	 * Refunds at the gateway, from the order screen. The amount is whole AMD.
	 *
	 * @param int        $order_id The order id.
	 * @param float|null $amount   The amount to refund.
	 * @param string     $reason   The reason the shop owner gave.
	 * @return bool|WP_Error
	 */
	public function process_refund( $order_id, $amount = null, $reason = '' ) {
		$order = wc_get_order( $order_id );
		if ( ! $order ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'The order was not found.', 'armenian-payment-gateway' ) );
		}
		if ( 'AMD' !== strtoupper( (string) $order->get_currency() ) ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Only orders in Armenian dram (AMD) can be refunded with this payment method.', 'armenian-payment-gateway' ) );
		}
		if ( null === $amount || '' === $amount || ! is_numeric( $amount ) || (float) $amount <= 0 ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Enter the amount to refund.', 'armenian-payment-gateway' ) );
		}
		$whole = self::whole_amd( $amount );
		if ( null === $whole ) {
			return new WP_Error( 'armenian_gateway_refund_failed', __( 'Refunds are made in whole Armenian dram (AMD): enter an amount without a fractional part.', 'armenian-payment-gateway' ) );
		}

		$body   = array( 'amount' => $whole );
		$reason = trim( (string) $reason );
		if ( '' !== $reason ) {
			$body['reason'] = $reason;
		}
		$store_refund_id = $this->newest_refund_id( $order );
		if ( null !== $store_refund_id ) {
			$body['store_refund_id'] = (string) $store_refund_id;
		}

		$result = $this->call_connector( 'POST', $this->order_path( $order ) . '/refunds', $body );
		if ( $result->is_ok() ) {
			self::note_refund_answer( $order, $whole, $result );
			return true;
		}
		if ( null !== $store_refund_id && self::answer_unknown( $result ) ) {
			// The refund may have been made: WooCommerce keeps its refund, and the same refund is sent
			// again until the connector answers, so it is never made twice nor lost.
			$this->log( 'warning', sprintf( 'Refunding order %d got no answer; it is sent again later', $order->get_id() ), $result );
			self::schedule_refund_resend( $order->get_id(), $body, 1 );
			$order->add_order_note(
				sprintf(
					/* translators: %s: amount in AMD. */
					__( 'The refund of %s AMD was sent to the Armenian Payment Gateway, but its answer did not arrive. The refund is kept on this order and sent again, as the same refund, until the gateway answers: do not refund it a second time. If the gateway refuses it, it is removed from this order with a note.', 'armenian-payment-gateway' ),
					number_format( $whole, 0, '.', '' )
				)
			);
			return true;
		}
		$this->log( 'warning', sprintf( 'Refunding order %d failed', $order->get_id() ), $result );
		return new WP_Error( 'armenian_gateway_refund_failed', $this->admin_error_message( $result ) );
	}

	/**
	 * WooCommerce cancelled an order paid with this method (the buyer's Cancel link, the shop owner,
	 * or an unpaid order held too long): its open payment is cancelled at the gateway, so opening its
	 * checkout again can no longer take the money. Without an answer it is asked again later
	 * (WP-Cron), each wait longer; a payment completed meanwhile is flagged by the connector for the
	 * shop owner (refund it, or reopen the order).
	 *
	 * @param int $order_id The order.
	 * @param int $attempt  This attempt's number (1 when WooCommerce cancels it).
	 */
	public static function cancel_order_payment( $order_id, $attempt = 1 ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || $order instanceof WC_Order_Refund || self::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$gateway = new self();
		$result  = $gateway->call_connector( 'POST', $gateway->order_path( $order ) . '/cancel', null, self::CANCEL_TIMEOUT );
		if ( $result->is_ok() ) {
			return;
		}
		$attempt = is_numeric( $attempt ) ? (int) $attempt : 1;
		if ( self::answer_unknown( $result ) && $attempt < self::RESEND_REFUND_ATTEMPTS ) {
			$wait = (int) min( MINUTE_IN_SECONDS * pow( 2, $attempt - 1 ), 6 * HOUR_IN_SECONDS );
			wp_schedule_single_event( time() + $wait, self::CANCEL_PAYMENT_HOOK, array( (int) $order->get_id(), $attempt + 1 ) );
			return;
		}
		$gateway->log( 'warning', sprintf( 'Cancelling the payment of cancelled order %d failed', $order->get_id() ), $result );
	}

	/**
	 * Notes the connector's answer to a refund on the order: refunded (201), or sent with its outcome
	 * not known yet (202: the payment processor did not answer; the connector settles it).
	 *
	 * @param WC_Order                  $order  The order.
	 * @param int                       $whole  The amount in whole AMD.
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 */
	private static function note_refund_answer( $order, $whole, Armenian_Gateway_Response $result ) {
		$amount = number_format( $whole, 0, '.', '' );
		if ( 202 === $result->status ) {
			$order->add_order_note(
				sprintf(
					/* translators: %s: amount in AMD. */
					__( 'The refund of %s AMD was sent to the Armenian Payment Gateway; the payment processor has not confirmed it yet. It is kept on this order: do not refund it a second time. If it does not go through, it is removed from this order with a note.', 'armenian-payment-gateway' ),
					$amount
				)
			);
			return;
		}
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount in AMD, 2: the gateway refund uuid. */
				__( 'Refunded %1$s AMD at the Armenian Payment Gateway (refund %2$s).', 'armenian-payment-gateway' ),
				$amount,
				$result->field( 'refund_uuid' )
			)
		);
	}

	/**
	 * Whether a failed call may still have been carried out: the connector did not answer, answered
	 * too late, failed itself (5xx) or answered something else than its JSON. A refusal it answered
	 * (4xx), or a call never sent (no settings, a refused URL), changed nothing.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return bool
	 */
	private static function answer_unknown( Armenian_Gateway_Response $result ) {
		if ( $result->status >= 500 ) {
			return true;
		}
		return in_array(
			$result->error,
			array( Armenian_Gateway_Response::TRANSPORT_ERROR, Armenian_Gateway_Connector::TIMEOUT_ERROR, Armenian_Gateway_Response::INVALID_RESPONSE ),
			true
		);
	}

	/**
	 * Sends a refund whose answer never arrived again later (WP-Cron), each wait longer: 1, 2, 4 ...
	 * minutes, at most 6 hours.
	 *
	 * @param int   $order_id The order.
	 * @param array $body     The very request sent (amount, reason, store_refund_id).
	 * @param int   $attempt  The attempt it will be.
	 */
	private static function schedule_refund_resend( $order_id, array $body, $attempt ) {
		$wait = (int) min( MINUTE_IN_SECONDS * pow( 2, $attempt - 1 ), 6 * HOUR_IN_SECONDS );
		wp_schedule_single_event( time() + $wait, self::RESEND_REFUND_HOOK, array( (int) $order_id, $body, (int) $attempt ) );
	}

	/**
	 * WP-Cron: sends a refund whose answer never arrived again, under its store refund id (the
	 * connector answers the same refund, never a second one). Refunded or pending: noted. Refused:
	 * nothing was refunded, so WooCommerce's refund is deleted and the order says why. No answer
	 * again: tried later, for at most `RESEND_REFUND_ATTEMPTS` attempts, then the owner is told.
	 *
	 * @param int   $order_id The order.
	 * @param array $body     The request (amount, reason, store_refund_id).
	 * @param int   $attempt  This attempt's number.
	 */
	public static function resend_refund( $order_id, $body, $attempt ) {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order || ! is_array( $body ) || ! isset( $body['store_refund_id'], $body['amount'] ) ) {
			return;
		}
		$gateway = new self();
		$whole   = (int) $body['amount'];
		$result  = $gateway->call_connector( 'POST', $gateway->order_path( $order ) . '/refunds', $body );
		if ( $result->is_ok() ) {
			self::note_refund_answer( $order, $whole, $result );
			return;
		}
		if ( self::answer_unknown( $result ) ) {
			if ( (int) $attempt >= self::RESEND_REFUND_ATTEMPTS ) {
				$order->add_order_note(
					sprintf(
						/* translators: %s: amount in AMD. */
						__( 'The refund of %s AMD still has no answer from the Armenian Payment Gateway after many tries. Check the connection on the payment method settings page, then look the payment up in the gateway dashboard before refunding again.', 'armenian-payment-gateway' ),
						number_format( $whole, 0, '.', '' )
					)
				);
				return;
			}
			self::schedule_refund_resend( $order->get_id(), $body, (int) $attempt + 1 );
			return;
		}
		$refund = wc_get_order( (int) $body['store_refund_id'] );
		if ( $refund instanceof WC_Order_Refund ) {
			$refund->delete( true );
		}
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount in AMD, 2: the gateway's reason. */
				__( 'The Armenian Payment Gateway refused the refund of %1$s AMD: %2$s Nothing was refunded, and the refund was removed from this order.', 'armenian-payment-gateway' ),
				number_format( $whole, 0, '.', '' ),
				$gateway->admin_error_message( $result )
			)
		);
	}

	/**
	 * The amount in whole AMD, or null when it has a fractional part.
	 *
	 * @param string|float|int $amount A positive decimal amount.
	 * @return int|null
	 */
	private static function whole_amd( $amount ) {
		$hundredths = round( (float) $amount * 100 );
		if ( 0.0 !== fmod( $hundredths, 100.0 ) ) {
			return null;
		}
		return (int) ( $hundredths / 100 );
	}

	/**
	 * The id of the order's newest refund: WooCommerce creates the refund before it asks the gateway,
	 * so this is the refund being processed.
	 *
	 * @param WC_Order $order The order.
	 * @return int|null
	 */
	private function newest_refund_id( $order ) {
		$newest = null;
		foreach ( $order->get_refunds() as $refund ) {
			$id = (int) $refund->get_id();
			if ( $id > 0 && ( null === $newest || $id > $newest ) ) {
				$newest = $id;
			}
		}
		return $newest;
	}

	/**
	 * The URL the buyer comes back to from the hosted checkout. Its parameters have names of the
	 * plugin's own: the gateway adds `payment_uuid` and `order_id` (its order id) to return URLs
	 * that do not carry them already.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private function return_handler_url( $order ) {
		return add_query_arg(
			array(
				'apg_order' => $order->get_id(),
				'apg_key'   => $order->get_order_key(),
			),
			WC()->api_request_url( self::RETURN_ENDPOINT )
		);
	}

	/**
	 * The connector's path of an order.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private function order_path( $order ) {
		return '/v1/orders/' . rawurlencode( (string) $order->get_id() );
	}

	/**
	 * The message a buyer sees when the payment could not be started.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	private function buyer_payment_error( Armenian_Gateway_Response $result ) {
		if ( $result->is_error( 'unsupported_amount' ) ) {
			return __( 'This payment method accepts whole amounts in Armenian dram (AMD) only. Please choose another payment method.', 'armenian-payment-gateway' );
		}
		return __( 'We could not start the payment. Please try again in a moment, or choose another payment method.', 'armenian-payment-gateway' );
	}

	/**
	 * The message a shop owner sees for a failed call.
	 *
	 * @param Armenian_Gateway_Response $result The connector's answer.
	 * @return string
	 */
	private function admin_error_message( Armenian_Gateway_Response $result ) {
		return Armenian_Gateway_Connector::admin_error_message( $result );
	}

	/**
	 * True when test mode is on.
	 *
	 * @return bool
	 */
	public function is_test_mode() {
		return 'yes' === $this->get_option( 'test_mode', 'yes' );
	}

	/**
	 * True when the connect token and the connector URL are set.
	 *
	 * @return bool
	 */
	private function is_configured() {
		return '' !== $this->connect_token() && '' !== $this->connector_url();
	}

	/**
	 * The connect token.
	 *
	 * @return string
	 */
	private function connect_token() {
		return Armenian_Gateway_Connector::saved_token();
	}

	/**
	 * The connector's base URL, without a trailing slash.
	 *
	 * @return string
	 */
	private function connector_url() {
		return untrailingslashit( trim( (string) $this->get_option( 'connector_url', '' ) ) );
	}

	/**
	 * Calls the connector (Armenian_Gateway_Connector) with this gateway's token and URL.
	 *
	 * @param string     $method  GET, POST or DELETE.
	 * @param string     $path    Path from the connector's root, starting with a slash.
	 * @param array|null $body    JSON body, or null for none.
	 * @param int        $timeout Seconds the call may take.
	 * @return Armenian_Gateway_Response
	 */
	private function call_connector( $method, $path, $body = null, $timeout = self::TIMEOUT ) {
		return $this->connector()->request( $method, $path, $body, $timeout );
	}

	/**
	 * The connector client with this gateway's token and URL.
	 *
	 * @return Armenian_Gateway_Connector
	 */
	private function connector() {
		return new Armenian_Gateway_Connector( $this->connect_token(), $this->connector_url() );
	}

	/**
	 * Writes to the WooCommerce log (source `armenian-gateway`), never the connect token.
	 *
	 * @param string                         $level   warning or error.
	 * @param string                         $message What failed.
	 * @param Armenian_Gateway_Response|null $result  The connector's answer.
	 */
	private function log( $level, $message, $result ) {
		Armenian_Gateway_Connector::log( $level, $message, $result );
	}
}
