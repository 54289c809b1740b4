import { broadcastClientMessageSchema, createAjv, type BroadcastClientMessage } from '@pulseboard/contracts';

/** Reads a client's text frame: a message of the published protocol, or undefined (not JSON, or not one of its messages). */
export type ClientMessageParser = (text: string) => BroadcastClientMessage | undefined;

/** Compiles the protocol's client-message schema once; the parser is shared by every connection. */
export function createClientMessageParser(): ClientMessageParser {
  const validate = createAjv().compile<BroadcastClientMessage>(broadcastClientMessageSchema);
  return (text) => {
    try {
      const value: unknown = JSON.parse(text);
      return validate(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
}
