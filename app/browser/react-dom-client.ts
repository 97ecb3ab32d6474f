// `react-dom/client` in the browser build (vite.config.ts aliases react and react-dom to
// preact/compat there; the server renders with React 18: ADR 0028). preact/compat's own
// hydrateRoot cannot take the whole document, which is what Remix hydrates: Preact renders into
// `document.documentElement` when handed `document` (preactjs/preact#3794), so the root's
// <html> would be created anew inside the server's <html>, the page drawn twice. Handed this
// stand-in instead, whose only child is the document's <html>, Preact hydrates that element in
// place, as React does.
//
// It also brings two of React's behaviours that preact/compat lacks, for every element the app
// draws (an options.vnode hook, before compat's own):
//   - onChange on an element other than a field (a <Form> clearing a field's message as the field
//     is edited: useFormErrors) runs on every edit, as React's does, not only when a field loses
//     focus: it listens to `input`, which text fields, boxes, selects and file fields all send;
//   - maxLength / minLength left out (undefined) removes the attribute, as React does, instead of
//     setting the property to "" (a box limited to 0 characters);
//   - autoFocus focuses a field the page draws after it loaded (React calls focus() as it mounts
//     one; the attribute alone works only while the page loads). Fields hydrated from the
//     server's HTML are left alone: the browser has already applied their attribute.
import type { ComponentChild, VNode } from "preact";
import { options } from "preact";
import { hydrate, render } from "preact/compat";
import { hydrationPass } from "~/components/HydrateLater";

const FIELDS = new Set(["input", "textarea", "select"]);
const LENGTH_PROPS = ["maxLength", "minLength"] as const;

const autoFocused = new WeakSet<HTMLElement>();

function focusOnMount(vnode: VNode) {
  const ref = vnode.ref as ((element: HTMLElement | null) => void) | { current: HTMLElement | null } | null | undefined;
  vnode.ref = (element: HTMLElement | null) => {
    if (element && !autoFocused.has(element)) {
      autoFocused.add(element);
      if (!hydrationPass.running) element.focus();
    }
    if (typeof ref === "function") ref(element);
    else if (ref) ref.current = element;
  };
}

const compatVnode = options.vnode;
options.vnode = (vnode: VNode) => {
  if (typeof vnode.type === "string") {
    const props = vnode.props as Record<string, unknown>;
    if (props.autoFocus) focusOnMount(vnode);
    if (props.onChange && !FIELDS.has(vnode.type) && !props.onInput) {
      props.onInput = props.onChange;
      delete props.onChange;
    }
    for (const name of LENGTH_PROPS) {
      if (name in props) {
        props[name.toLowerCase()] = props[name];
        delete props[name];
      }
    }
  }
  compatVnode?.(vnode);
};

/** What Preact reads of a root's parent: its namespace, its children, and where to insert. */
function documentParent(): Element {
  return {
    namespaceURI: null,
    get firstChild() {
      return document.documentElement;
    },
    get childNodes() {
      return [document.documentElement];
    },
    insertBefore: (node: Node, before: Node | null) => document.insertBefore(node, before),
  } as unknown as Element;
}

function root(parent: Element) {
  return { render: (children: ComponentChild) => render(children, parent), unmount: () => render(null, parent) };
}

export function hydrateRoot(container: Element | Document, children: ComponentChild) {
  const parent = container === document ? documentParent() : (container as Element);
  hydrationPass.running = true;
  try {
    hydrate(children, parent);
  } finally {
    hydrationPass.running = false;
  }
  return root(parent);
}

export function createRoot(container: Element | Document) {
  return root(container === document ? documentParent() : (container as Element));
}
