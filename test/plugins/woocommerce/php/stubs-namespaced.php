<?php
/**
 * Stand-ins for the namespaced WooCommerce classes the plugin uses.
 */

namespace Automattic\WooCommerce\Utilities {

	class FeaturesUtil {
		public static function declare_compatibility( $feature_id, $plugin_file, $positive_compatibility = true ) {
			$GLOBALS['harness']['features'][] = array(
				'feature'    => $feature_id,
				'file'       => basename( $plugin_file ),
				'compatible' => $positive_compatibility,
			);
			return true;
		}
	}
}

namespace Automattic\WooCommerce\Blocks\Payments\Integrations {

	abstract class AbstractPaymentMethodType {
		protected $name     = '';
		protected $settings = array();

		abstract public function initialize();

		public function get_name() {
			return $this->name;
		}

		public function is_active() {
			return true;
		}

		public function get_payment_method_script_handles() {
			return array();
		}

		public function get_payment_method_data() {
			return array();
		}

		protected function get_setting( $name, $default_value = '' ) {
			return isset( $this->settings[ $name ] ) ? $this->settings[ $name ] : $default_value;
		}
	}
}
