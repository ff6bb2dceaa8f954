// Small uploads: a phone's 12 MP photo (3-5 MB, seconds on a slow uplink) is shrunk in the page
// before it is sent. The recognizer decodes a big JPEG at a long side of about 1,000 px
// (vision/decode.py): 2,000 px keeps twice that, and a 4000x3000 photo's 2,000 is decoded at the
// 1,000 px its full file is (at 2,048 px, 2 of 391 cards on poker-cards-4 were read differently; at
// 2,000, none: benchmarks/page_uploads.py). The server still takes full files.

export const LONG_SIDE_PX = 2000;
export const JPEG_QUALITY = 0.9;
// Over this, a photo is sent at a lower quality: the upload budget a 12 MP photo must fit.
export const MAX_UPLOAD_BYTES = 600 * 1024;
const FALLBACK_QUALITY = 0.8;

async function drawn(bitmap, width, height) {
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(width, height);
    paint(canvas.getContext("2d"), bitmap, width, height);
    return (quality) => canvas.convertToBlob({ type: "image/jpeg", quality });
  }
  const canvas = document.createElement("canvas");
  Object.assign(canvas, { width, height });
  paint(canvas.getContext("2d"), bitmap, width, height);
  return (quality) => new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

function paint(ctx, bitmap, width, height) {
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(bitmap, 0, 0, width, height);
}

/** The photo to send: `file` itself when its long side is at most LONG_SIDE_PX or the browser cannot
 * draw it (an iPhone's HEIC in Chrome: the server reads it), else a JPEG upright (EXIF orientation
 * applied) with a long side of LONG_SIDE_PX. */
export async function shrinkPhoto(file) {
  if (typeof createImageBitmap === "undefined") return file;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  try {
    const scale = LONG_SIDE_PX / Math.max(bitmap.width, bitmap.height);
    if (scale >= 1) return file;
    const encode = await drawn(bitmap, Math.round(bitmap.width * scale), Math.round(bitmap.height * scale));
    let blob = await encode(JPEG_QUALITY);
    if (blob && blob.size > MAX_UPLOAD_BYTES) blob = await encode(FALLBACK_QUALITY);
    if (!blob) return file;
    const name = (file.name || "photo").replace(/\.[^.]*$/, "") + ".jpg";
    return new File([blob], name, { type: "image/jpeg" });
  } finally {
    bitmap.close();
  }
}
