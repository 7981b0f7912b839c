/** Part 2 of the WooCommerce money seam's model (woocommerce-seam.model.ts says what it checks). */
import { describeSeamModel } from './woocommerce-seam.model.js';

describeSeamModel(2);
