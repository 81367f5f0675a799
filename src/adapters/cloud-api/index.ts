/** Cloud API client: implements the `CloudApi` port over keep-alive HTTP, without retries. */
export { createCloudApiClient, type CloudApiClientOptions } from './cloud-api-client.js';
export { parseSendResponse } from './parse-response.js';
export { buildRequestBody, sendPath } from './request-body.js';
export { createTemplateApiClient, TEMPLATE_FIELDS, type TemplateApiClientOptions } from './template-api-client.js';
export { createMediaApiClient, type MediaApiClientOptions } from './media-api-client.js';
