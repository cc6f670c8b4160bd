/** The answers' shapes are rendered in the shared package, so callback bodies match them exactly. */
export { toCallbackDelivery, toScanResult, toStoredScan } from "@scan/contract";
