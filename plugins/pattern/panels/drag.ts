/** MIME type of dataset fields dragged onto the canvas (a JSON array of `ColumnOffer`). */
export const FIELD_MIME = 'application/x-decisio-fields';
