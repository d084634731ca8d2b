"use client";
import { useEffect } from "react";

const REGIONS = ".table-wrap, .payload, main table";

/** Gives every box that scrolls now (a wide table at phone width, a long payload) a tab stop, and takes it back when it no longer does. */
function mark() {
  for (const el of document.querySelectorAll<HTMLElement>(REGIONS)) {
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (scrolls && !el.hasAttribute("tabindex")) {
      el.tabIndex = 0;
      el.dataset.scrollStop = "";
    } else if (!scrolls && el.dataset.scrollStop !== undefined) {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollStop;
    }
  }
}

/**
 * Wide content scrolls inside its own box, never the page; a keyboard must be able to scroll it
 * too (WCAG 2.1.1), so a box that scrolls takes the focus. Watches the page as it changes size
 * and content (navigation, live refresh), at most once a frame.
 */
export function ScrollRegions() {
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), mark()));
    };
    const resize = new ResizeObserver(schedule);
    resize.observe(document.body);
    const changes = new MutationObserver(schedule);
    changes.observe(document.body, { childList: true, subtree: true });
    mark();
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      changes.disconnect();
    };
  }, []);
  return null;
}
