import type { JsonValue } from '../src/ports/json.js';

/** A template object as Meta's JSON, with its components at hand. */
export type TemplateJson = { components: JsonValue[] } & { [key: string]: JsonValue };

/**
 * Template objects shaped as `GET /{WABA_ID}/message_templates` returns them (the structure of Meta's
 * published examples; ids, names and texts are made up).
 */
export const NAMED_MARKETING: TemplateJson = {
  id: '880000000000001',
  name: 'spring_promo_named',
  language: 'en_GB',
  status: 'APPROVED',
  category: 'MARKETING',
  sub_category: 'CUSTOM',
  parameter_format: 'NAMED',
  quality_score: { score: 'GREEN', date: 1767225600 },
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.example/h'] } },
    {
      type: 'BODY',
      text: 'Hi {{first_name}}, take {{discount}} off until {{end_date}}.',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Ada' },
          { param_name: 'discount', example: '15%' },
          { param_name: 'end_date', example: '31 May' },
        ],
      },
    },
    { type: 'FOOTER', text: 'Tap Stop promotions to opt out' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Shop', url: 'https://shop.example/p/{{1}}', example: ['https://shop.example/p/spring'] },
        { type: 'QUICK_REPLY', text: 'Stop promotions' },
      ],
    },
  ],
};

export const AUTH_OTP: TemplateJson = {
  id: '880000000000002',
  name: 'otp_login',
  language: 'en',
  status: 'APPROVED',
  category: 'AUTHENTICATION',
  parameter_format: 'POSITIONAL',
  message_send_ttl_seconds: 300,
  components: [
    { type: 'BODY', text: '*{{1}}* is your verification code.', add_security_recommendation: false },
    { type: 'FOOTER', text: 'This code expires in 5 minutes.', code_expiration_minutes: 5 },
    {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'URL',
          text: 'Copy code',
          url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
          example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'],
        },
      ],
    },
  ],
};

export const POSITIONAL_PAUSED: TemplateJson = {
  id: '880000000000003',
  name: 'order_shipped',
  language: 'pt_BR',
  status: 'PAUSED',
  category: 'UTILITY',
  previous_category: 'MARKETING',
  parameter_format: 'POSITIONAL',
  components: [{ type: 'BODY', text: 'Pedido {{1}} enviado.', example: { body_text: [['A-1001']] } }],
};

export const CAROUSEL: TemplateJson = {
  id: '880000000000004',
  name: 'summer_cards',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'Our picks for you, {{1}}.', example: { body_text: [['Ada']] } },
    {
      type: 'CAROUSEL',
      cards: [1, 2, 3].map((n): JsonValue => ({
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [`https://scontent.example/${n}`] } },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'More' }] },
        ],
      })),
    },
  ],
};

export const LIMITED_TIME_OFFER: TemplateJson = {
  id: '880000000000005',
  name: 'flash_offer',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://scontent.example/v'] } },
    { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Flash sale', has_expiration: true } },
    { type: 'BODY', text: 'Hello {{1}}, {{2}} off today.', example: { body_text: [['Ada', '20%']] } },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'COPY_CODE', example: 'FLASH20' },
        { type: 'URL', text: 'Shop', url: 'https://shop.example/o/{{1}}', example: ['https://shop.example/o/x'] },
      ],
    },
  ],
};
