/**
 * Byte-level helpers. A "binary string" holds one char per byte (codes 0-255), so string
 * methods work on octets, as Google's parser does, and ASCII text reads as itself.
 */

const CHUNK = 0x2000;

/** The bytes from..to as a binary string. */
export const binaryOf = (bytes: Uint8Array, from = 0, to = bytes.length): string => {
  let text = "";
  for (let start = from; start < to; start += CHUNK) {
    text += String.fromCharCode(...bytes.subarray(start, Math.min(to, start + CHUNK)));
  }
  return text;
};

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");

/** A text as its UTF-8 bytes, in a binary string. */
export const utf8Binary = (text: string): string => {
  // the common case: plain ASCII is its own encoding
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) return binaryOf(encoder.encode(text));
  }
  return text;
};

/** A binary string read back as UTF-8 text, for showing a line to a person. */
export const textOf = (binary: string): string => {
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return decoder.decode(bytes);
};

// absl::ascii_isspace: space, \t, \n, \v, \f, \r
const isAsciiSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d);

export const stripAsciiWhitespace = (text: string): string => {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
};

const isHexDigit = (char: string | undefined): boolean => char !== undefined && /^[0-9a-fA-F]$/.test(char);
const HEX = "0123456789ABCDEF";

/**
 * A rule's value as Google compares it: every %xx upper-cased ("%aa" → "%AA"), every octet
 * outside ASCII %-encoded ("é" → "%C3%A9"). Input and output are binary strings.
 */
export const escapePattern = (value: string): string => {
  let plain = true;
  for (let index = 0; index < value.length && plain; index++) {
    plain =
      value.charCodeAt(index) < 0x80 && !(value[index] === "%" && /[a-f]/.test(value.slice(index + 1, index + 3)));
  }
  if (plain) return value;
  let out = "";
  for (let index = 0; index < value.length; index++) {
    const char = value[index] as string;
    if (char === "%" && isHexDigit(value[index + 1]) && isHexDigit(value[index + 2])) {
      out += `%${value.slice(index + 1, index + 3).toUpperCase()}`;
      index += 2;
    } else if (value.charCodeAt(index) >= 0x80) {
      const code = value.charCodeAt(index);
      out += `%${HEX[code >> 4]}${HEX[code & 0xf]}`;
    } else {
      out += char;
    }
  }
  return out;
};
