// The few inline Markdown marks route descriptions use (`code`, **strong**, *emphasis*, [text](link)),
// as DOM nodes: built, never parsed as HTML, so a description cannot become markup.
import { el } from './dom.js';

const MARK = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
// Links go to this site's pages or to the web; any other scheme (javascript:, data:) stays text.
const SAFE_HREF = /^(?:\/(?!\/)|#|https?:\/\/)/;

/** A line of Markdown as text nodes and elements, to append where the text went. */
export function inlineMarkdown(text) {
  const source = String(text ?? '');
  const out = [];
  let at = 0;
  for (const match of source.matchAll(MARK)) {
    if (match.index > at) out.push(source.slice(at, match.index));
    const [whole, code, strong, em, label, href] = match;
    if (code !== undefined) out.push(el('code', {}, code));
    else if (strong !== undefined) out.push(el('strong', {}, strong));
    else if (em !== undefined) out.push(el('em', {}, em));
    else out.push(SAFE_HREF.test(href) ? el('a', { href }, label) : whole);
    at = match.index + whole.length;
  }
  if (at < source.length) out.push(source.slice(at));
  return out;
}
