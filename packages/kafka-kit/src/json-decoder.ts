import type { ValidateFunction } from 'ajv';
import type { Decoder } from './batch-consumer.ts';

/** Decodes a JSON value and checks it against the topic's schema. */
export function jsonDecoder<T>(validate: ValidateFunction): Decoder<T> {
  return (value) => {
    if (value === null) return { ok: false, code: 'empty_value', message: 'message has no value' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (error) {
      return { ok: false, code: 'invalid_json', message: (error as Error).message };
    }
    if (!validate(parsed)) {
      return { ok: false, code: 'schema_violation', message: JSON.stringify(validate.errors?.slice(0, 5)) };
    }
    return { ok: true, value: parsed as T };
  };
}
