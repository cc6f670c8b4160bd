import { useCanWrite } from "../workspace";
import { Notice } from "./ui";

/** Said once on a page whose write controls are not offered to a viewer; nothing for the other roles. */
export const ReadOnlyNotice = () => {
  const canWrite = useCanWrite();
  if (canWrite) return null;
  return <Notice kind="info">Your role in this workspace is viewer: you can read, not change.</Notice>;
};
