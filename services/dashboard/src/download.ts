/**
 * Saves text or a file's bytes as a file through a `blob:` link made in the page and clicked: the API's exports
 * want the session's JWT in a header, which a plain link to the API cannot send.
 */
export const saveFile = (name: string, content: string | Blob, type: string) => {
  const href = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the URL by then; a minute leaves a slow disk its time
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
};
