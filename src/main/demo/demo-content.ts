import type { SimUser } from '../../adapters/simulator/index.js';
import type { ParameterMapping } from '../../core/template-slot-values.js';
import type { JsonObject } from '../../ports/store.js';

/**
 * What the business knows of each person and how its templates are filled in, the same in both
 * worlds: a first name (a few people have none and are greeted "there"), a coupon of their own and
 * an order number.
 */
export function demoAttributes(user: SimUser, index: number): JsonObject {
  const firstName = index % 97 === 13 ? null : (user.name.split(' ')[0] ?? null);
  return {
    country: user.country,
    ...(firstName === null ? {} : { first_name: firstName }),
    coupon_code: `SPRING-${(((index + 1) * 7919) % 1_000_003).toString(36).toUpperCase()}`,
    order_id: `A-${100_000 + index}`,
  };
}

/** spring_sale: an image header, "Hi {{1}}, … {{2}} off …", a shop link ending in the coupon, a stop button. */
export const SPRING_SALE_PARAMETERS: ParameterMapping = {
  header: { link: 'https://cdn.example.com/spring-sale.jpg' },
  'body.1': { attribute: 'first_name', fallback: 'there' },
  'body.2': { value: '20%' },
  'button.0': { attribute: 'coupon_code' },
};

/** order_update (named): "Order {{order_id}}" and "Hi {{first_name}}, your order {{order_id}} is {{order_status}}." */
export const ORDER_UPDATE_PARAMETERS: ParameterMapping = {
  order_id: { attribute: 'order_id' },
  first_name: { attribute: 'first_name', fallback: 'there' },
  order_status: { value: 'on its way' },
  'button.0': { attribute: 'order_id' },
};
