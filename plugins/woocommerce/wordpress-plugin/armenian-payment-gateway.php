<?php
/**
 * Plugin Name:          Armenian Payment Gateway
 * Description:          Take payments with Armenian wallets and bank cards through the Armenian Payment Gateway hosted checkout. Refunds from the WooCommerce admin.
 * Version:              0.1.0
 * Requires at least:    6.5
 * Requires PHP:         7.4
 * Requires Plugins:     woocommerce
 * WC requires at least: 8.0
 * WC tested up to:      11.3
 * Author:               Armenian Payment Gateway
 * License:              GPL-2.0-or-later
 * License URI:          https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:          armenian-payment-gateway
 *
 * @package ArmenianPaymentGateway
 */

defined( 'ABSPATH' ) || exit;

define( 'ARMENIAN_GATEWAY_VERSION', '0.1.0' );
define( 'ARMENIAN_GATEWAY_FILE', __FILE__ );
define( 'ARMENIAN_GATEWAY_DIR', plugin_dir_path( __FILE__ ) );
define( 'ARMENIAN_GATEWAY_URL', plugin_dir_url( __FILE__ ) );

/**
 * Loads the gateway classes once every plugin is loaded, and only when WooCommerce is active.
 */
function armenian_gateway_load() {
	if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
		add_action( 'admin_notices', 'armenian_gateway_missing_woocommerce_notice' );
		return;
	}
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-response.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-connector-url.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-connector.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-settings-fields.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-checkout.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-connection-settings.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-return.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-refunds.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-admin-format.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-health.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-connection-actions.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-order-panel.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-holds.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-hold-panel.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-reconciliation-view.php';
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-reconciliation-page.php';
	add_filter( 'woocommerce_payment_gateways', 'armenian_gateway_register' );
	add_action( Armenian_Gateway_Refunds::RESEND_REFUND_HOOK, array( 'Armenian_Gateway_Refunds', 'resend_refund' ), 10, 3 );
	add_action( 'woocommerce_order_status_cancelled', array( 'Armenian_Gateway_Refunds', 'cancel_order_payment' ), 10, 1 );
	Armenian_Gateway_Holds::register();
	Armenian_Gateway_Health::schedule_refresh();
	add_action( Armenian_Gateway_Refunds::CANCEL_PAYMENT_HOOK, array( 'Armenian_Gateway_Refunds', 'cancel_order_payment' ), 10, 2 );
	add_filter( 'plugin_action_links_' . plugin_basename( ARMENIAN_GATEWAY_FILE ), 'armenian_gateway_action_links' );
	if ( is_admin() ) {
		add_action( 'admin_init', 'armenian_gateway_privacy_policy_content' );
		Armenian_Gateway_Health::register();
		Armenian_Gateway_Connection_Actions::register();
		Armenian_Gateway_Order_Panel::register();
		Armenian_Gateway_Reconciliation_Page::register();
	}
}
add_action( 'plugins_loaded', 'armenian_gateway_load' );

/**
 * Suggests text for the site's privacy policy (Settings > Privacy): what the plugin sends to the
 * connector and the gateway about buyers, and when.
 */
function armenian_gateway_privacy_policy_content() {
	if ( ! function_exists( 'wp_add_privacy_policy_content' ) ) {
		return;
	}
	$text  = '<p class="privacy-policy-tutorial">' . esc_html__( 'Armenian Payment Gateway sends order and buyer details to the payment service that takes the store\'s payments. Say so in your privacy policy; the text below is a suggestion.', 'armenian-payment-gateway' ) . '</p>';
	$text .= '<p><strong class="privacy-policy-tutorial">' . esc_html__( 'Suggested text:', 'armenian-payment-gateway' ) . '</strong> ';
	$text .= esc_html__( 'When you pay with a bank card or wallet, we send your order number, its total, currency, status and date, your name and your email address to our payment service provider (the Armenian Payment Gateway and its connector), which creates the payment and confirms it to us. You enter your card or wallet details on the payment service\'s own page; they never reach this website. The payment service keeps the payment, its amount and its status to settle it, refund it and meet its legal obligations.', 'armenian-payment-gateway' ) . '</p>';
	wp_add_privacy_policy_content( __( 'Armenian Payment Gateway', 'armenian-payment-gateway' ), wp_kses_post( $text ) );
}

/**
 * Adds the gateway to WooCommerce's payment methods.
 *
 * @param string[] $gateways Gateway class names.
 * @return string[]
 */
function armenian_gateway_register( $gateways ) {
	$gateways[] = 'Armenian_Gateway';
	return $gateways;
}

/**
 * Adds "Settings" (and "Reconciliation") to the plugin's row on the Plugins screen.
 *
 * @param string[] $links The row's links.
 * @return string[]
 */
function armenian_gateway_action_links( $links ) {
	$settings       = '<a href="' . esc_url( admin_url( 'admin.php?page=wc-settings&tab=checkout&section=armenian_gateway' ) ) . '">' . esc_html__( 'Settings', 'armenian-payment-gateway' ) . '</a>';
	$reconciliation = '<a href="' . esc_url( admin_url( 'admin.php?page=armenian-gateway-reconciliation' ) ) . '">' . esc_html__( 'Reconciliation', 'armenian-payment-gateway' ) . '</a>';
	array_unshift( $links, $settings, $reconciliation );
	return $links;
}

/**
 * Tells the shop owner that the plugin needs WooCommerce.
 */
function armenian_gateway_missing_woocommerce_notice() {
	echo '<div class="notice notice-error"><p>' . esc_html__( 'Armenian Payment Gateway needs WooCommerce to be installed and active.', 'armenian-payment-gateway' ) . '</p></div>';
}

/**
 * Declares compatibility with High-Performance Order Storage and the Cart and Checkout blocks.
 */
function armenian_gateway_declare_compatibility() {
	if ( class_exists( '\Automattic\WooCommerce\Utilities\FeaturesUtil' ) ) {
		\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', __FILE__, true );
		\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', __FILE__, true );
	}
}
add_action( 'before_woocommerce_init', 'armenian_gateway_declare_compatibility' );

/**
 * Registers the payment method with the Checkout block.
 *
 * @param \Automattic\WooCommerce\Blocks\Payments\PaymentMethodRegistry $registry The Blocks payment method registry.
 */
function armenian_gateway_register_blocks( $registry ) {
	if ( ! class_exists( '\Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType' ) ) {
		return;
	}
	require_once ARMENIAN_GATEWAY_DIR . 'includes/class-armenian-gateway-blocks.php';
	$registry->register( new Armenian_Gateway_Blocks() );
}
add_action( 'woocommerce_blocks_payment_method_type_registration', 'armenian_gateway_register_blocks' );
