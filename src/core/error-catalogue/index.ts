/** The error-code catalogue: data about Meta's codes plus lookup by code and by pasted text. */
export { ERROR_CATALOGUE } from './catalogue.js';
export { findErrorByCode, codeLabel } from './find-by-code.js';
export { classifyCode, resolveErrorEntry } from './classify-code.js';
export { findErrorsByText, lookupError, lookupText } from './lookup.js';
export type { LookupMatch, LookupMatchKind, LookupResult } from './lookup.js';
export { normalizeText } from './normalize-text.js';
export { renderErrorDocs, renderErrorIndex, renderErrorPage, errorPageFileName, errorFacts } from './render-docs.js';
export {
  describeApi,
  describeCampaignEffect,
  describeContactEffect,
  describeRetry,
  describeSenderEffect,
  describeSurface,
  describeTemplateEffect,
} from './describe-entry.js';
