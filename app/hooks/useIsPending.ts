import { useFormAction, useNavigation } from "@remix-run/react";

const pathOf = (action: string) => action.split("?")[0]!.replace(/\/+$/, "") || "/";

/**
 * Is a form of this page on its way: a navigation posting to `formAction` (by default this
 * route's own action), optionally only one whose `intent` field matches. The one pending-state
 * rule of every page form (button text and disabled while busy). Fetchers have their own state.
 */
export function useIsPending({
  formAction,
  formMethod = "POST",
  state = "non-idle",
  intent,
}: {
  formAction?: string;
  formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE";
  /** "submitting" only while the post is on its way; "non-idle" also while the answer's redirect loads */
  state?: "submitting" | "loading" | "non-idle";
  intent?: string;
} = {}): boolean {
  const own = useFormAction();
  const navigation = useNavigation();
  const inState = state === "non-idle" ? navigation.state !== "idle" : navigation.state === state;
  return (
    inState &&
    navigation.formMethod?.toUpperCase() === formMethod &&
    navigation.formAction !== undefined &&
    pathOf(navigation.formAction) === pathOf(formAction ?? own) &&
    (intent === undefined || navigation.formData?.get("intent") === intent)
  );
}
