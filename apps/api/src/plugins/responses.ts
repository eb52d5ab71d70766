import { errorResponse } from '@terrafund/contracts';

/** The error shape every route may answer with, declared once for the OpenAPI document. */
export const errorResponses = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
} as const;
