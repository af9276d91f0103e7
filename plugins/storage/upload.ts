/** The resumable upload client lives in `@decisio/sdk-plugin` (shared with the data-access plugin). */
export { callHeaders, partSizeFor, resumeKey, uploadResumable, UploadStopped, xhrPutPart, type ResumeStore, type UploadOptions, type UploadProgress, type UploadTransport } from '@decisio/sdk-plugin';
