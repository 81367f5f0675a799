import type { Recipient, SendRequest } from '../../ports/cloud-api.js';

/** The JSON body of `POST /{phone-number-id}/messages` (or `/marketing_messages`) for one send. */
export function buildRequestBody(request: SendRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...recipientField(request.to),
    biz_opaque_callback_data: request.messageId,
  };
  switch (request.type) {
    case 'template': {
      const template: Record<string, unknown> = {
        name: request.template.name,
        language: { code: request.template.language },
      };
      if (request.template.components !== undefined) template.components = request.template.components;
      return { ...body, type: 'template', template };
    }
    case 'text':
      return { ...body, type: 'text', text: { body: request.body, preview_url: request.previewUrl ?? false } };
  }
}

function recipientField(to: Recipient): Record<string, string> {
  switch (to.kind) {
    case 'phone':
      // Meta wants digits only; a leading + or spaces from an import are tolerated here.
      return { to: to.phone.replace(/[^0-9]/g, '') };
    case 'user_id':
      return { recipient: to.userId };
  }
}

/** Path below the base URL: `/{version}/{phone-number-id}/{messages|marketing_messages}`. */
export function sendPath(apiVersion: string, phoneNumberId: string, request: SendRequest): string {
  const endpoint = request.type === 'template' ? request.endpoint : 'messages';
  return `/${encodeURIComponent(apiVersion)}/${encodeURIComponent(phoneNumberId)}/${endpoint}`;
}
