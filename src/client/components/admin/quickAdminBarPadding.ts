/** The Quick Admin bar's height, which the page leaves free at its bottom (App pads by it); apart from the bar, which loads later. */
export const QUICK_ADMIN_BAR_PADDING = "pb-14";
