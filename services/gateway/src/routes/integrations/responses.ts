/** The answers of the integration endpoints that take events (for the OpenAPI document and fast serialisation). */
export const acceptedResponses = {
  202: {
    description: 'Accepted (`accepted`, with the events made), or nothing to record (`ignored`)',
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['accepted', 'ignored'] },
      message: { type: 'string' },
      count: { type: 'integer' },
      processed_at: { type: 'string', format: 'date-time' },
      events: { type: 'array', items: { type: 'object', properties: { event_id: { type: 'string' } } } },
    },
  },
} as const;
