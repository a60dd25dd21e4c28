/**
 * A storage answer that is not a success, in the shape storage-js reads (`{ statusCode, error,
 * message }`): it becomes a StorageApiError whose `status` is the HTTP status, `statusCode` this
 * code and `message` this message (SPEC §8 "Storage errors carry name, message, status").
 */
export interface StorageFailure {
  readonly status: number;
  /** A short name of the kind of failure (Supabase's `error`: 'Bucket not found', 'Duplicate', 'InvalidKey', …). */
  readonly error: string;
  readonly message: string;
}

export const storageFailure = (status: number, error: string, message: string): StorageFailure => ({ status, error, message });

export const invalidKey = (message: string): StorageFailure => storageFailure(400, 'InvalidKey', message);
export const invalidRequest = (message: string): StorageFailure => storageFailure(400, 'InvalidRequest', message);
export const bucketNotFound = (): StorageFailure => storageFailure(404, 'Bucket not found', 'Bucket not found');
export const objectNotFound = (): StorageFailure => storageFailure(404, 'not_found', 'Object not found');
export const duplicate = (): StorageFailure => storageFailure(409, 'Duplicate', 'The resource already exists');
export const emptyFile = (): StorageFailure => storageFailure(400, 'EmptyFile', 'The file is empty');
export const rlsDenied = (): StorageFailure => storageFailure(403, 'Unauthorized', 'new row violates row-level security policy');
export const payloadTooLarge = (limit: number): StorageFailure =>
  storageFailure(413, 'Payload too large', `The object exceeded the maximum allowed size (${limit} bytes)`);
export const mimeTypeRefused = (mime: string): StorageFailure => storageFailure(415, 'invalid_mime_type', `mime type ${mime.slice(0, 100)} is not supported`);
export const storageQuotaExceeded = (usedBytes: number, quotaBytes: number): StorageFailure =>
  storageFailure(
    402,
    'QuotaExceeded',
    `The project's storage quota (${quotaBytes} bytes on its owner's plan) would be exceeded: ${usedBytes} bytes are used. Delete files to make room.`,
  );
export const storageUnavailable = (): StorageFailure => storageFailure(503, 'ServiceUnavailable', 'Storage is unavailable right now: try again in a moment');
export const invalidSignature = (message: string): StorageFailure => storageFailure(400, 'InvalidSignature', message);
