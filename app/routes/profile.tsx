// The account page: the customer's details, a waiting email change and the password. Each of
// its forms is a route of its own under /profile (profile.details, profile.password,
// profile.email.*) that posts to its own URL; a refused form answers with the whole page, that
// route drawing its card, with the messages, where the page draws its own.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { Link } from "~/components/Link";
import { BoxIcon, LogoutIcon } from "~/components/account-icons";
import { UserIcon } from "~/components/icons";
import type { ProfileCard, ProfileContext } from "~/components/ProfileCards";
import { AccountSecurity, ConfirmEmail, PersonalInformation } from "~/components/ProfileCards";
import { pendingEmailChange } from "~/models/users/profile.server";
import { requireUser } from "~/web/visitor.server";

export const meta: MetaFunction = () => [{ title: "My Account | Sagwan Living" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  return {
    user,
    editing: params.get("edit") === "1",
    changingPassword: params.get("password") === "1",
    emailChange: await pendingEmailChange(user.id),
  };
}

export default function ProfileRoute() {
  const { user, editing, changingPassword, emailChange } = useLoaderData<typeof loader>();
  // The card whose form's route is open (after a refused post, or at its own URL) is that route's.
  const card = useMatches()
    .map((match) => (match.handle as { profileCard?: ProfileCard } | undefined)?.profileCard)
    .find((name) => name !== undefined);
  // The code is what the page waits for, unless another form is open.
  const codeAutoFocus = !editing && !changingPassword && (card === undefined || card === "email");
  const outlet = <Outlet context={{ user, emailChange, codeAutoFocus } satisfies ProfileContext} />;

  return (
    <div className="bg-sand-50">
      <div className="container-page py-10 sm:py-14">
        <h1 className="text-3xl font-semibold sm:text-4xl">My Account</h1>
        <p className="mt-2 text-stone-600">Hello, {user.name}. Keep your details up to date for smooth deliveries.</p>
        <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-4">
          <AccountMenu />
          <div className="space-y-6 lg:col-span-3">
            {card === "email" ? (
              outlet
            ) : emailChange ? (
              <ConfirmEmail pendingEmail={emailChange.pendingEmail} currentEmail={user.email} autoFocus={codeAutoFocus} />
            ) : null}
            {card === "details" ? outlet : <PersonalInformation user={user} editing={editing} />}
            {card === "password" ? outlet : <AccountSecurity open={changingPassword} />}
          </div>
        </div>
      </div>
    </div>
  );
}

function AccountMenu() {
  const item = [
    "flex min-h-12 w-full items-center justify-center gap-3 whitespace-nowrap rounded-lg px-3 text-left text-sm font-medium",
    "sm:text-base lg:justify-start lg:px-4",
  ].join(" ");
  return (
    <nav aria-label="Account" className="card h-fit p-2">
      <ul className="grid grid-cols-3 gap-1 lg:grid-cols-1">
        <li>
          <span aria-current="page" className={`${item} bg-wood-50 text-wood-800`}>
            <UserIcon className="hidden h-5 w-5 sm:block" /> My Account
          </span>
        </li>
        <li>
          <Link to="/orders" className={`${item} text-ink hover:bg-sand-100`}>
            <BoxIcon className="hidden h-5 w-5 sm:block" /> Order History
          </Link>
        </li>
        <li>
          <Form method="post" action="/logout">
            <input type="hidden" name="redirectTo" value="/login" />
            <button type="submit" className={`${item} text-red-700 hover:bg-red-50`}>
              <LogoutIcon className="hidden h-5 w-5 sm:block" /> Logout
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  );
}
