"""Writes a labelled, seeded look-alike benchmark catalog for TG005/TG006.

    python3 benches/lookalike_gen.py [--tools 500] [--seed 11] [--out fixtures/lookalike/synthetic-500]

It writes OUT.json (a tools/list snapshot) and OUT.labels.json (the true look-alike pairs).
The catalog is a gateway over 10 services. Each service offers template siblings: every verb
(list, get, create, update, delete, search, export, archive, share, count) applied to each of
its object nouns, with a description that names the object — `shop_export_products` and
`shop_export_customers` are different tools, and so are `crm_create_deal` and
`crm_delete_deal`. These are the known-distinct pairs. Into it we plant true look-alikes, each
a second tool doing the job of an existing one, in three kinds:

  paraphrase   same object, a verb of the same meaning, the description reworded
               (`billing_get_invoice` / `billing_fetch_invoice`);
  synonym      near-synonym names with the same object (`storage_delete_file` /
               `storage_remove_file`, `calendar_create_event` / `calendar_add_event`);
  rewording    the same job in other words: a synonym for the object as well as for the verb
               (`shop_search_customers` / `shop_find_clients`).

The planted tools replace template tools at random, so the catalog keeps its size. No planted
tool carries guidance ("use this instead of …"), so each member of a true pair should get TG006.

`--variant heldout` builds a second catalog from other services, other description wording and
other planted pairs, written after the rules were tuned on the first and never tuned on
(fixtures/lookalike/heldout/).
"""
import argparse
import json
import random

SERVICES = {
    "tracker": ["issue", "sprint", "epic", "board", "milestone"],
    "crm": ["contact", "deal", "company", "lead", "pipeline"],
    "storage": ["file", "folder", "drive", "link", "snapshot"],
    "billing": ["invoice", "payment", "refund", "subscription", "coupon"],
    "calendar": ["event", "calendar", "reminder", "room", "attendee"],
    "mail": ["draft", "mailbox", "filter", "signature", "alias"],
    "chat": ["channel", "message", "user", "reaction", "bookmark"],
    "analytics": ["report", "dashboard", "metric", "chart", "segment"],
    "hr": ["employee", "team", "review", "payslip", "holiday"],
    "shop": ["product", "order", "customer", "cart", "discount"],
}

PLURAL = {"company": "companies", "holiday": "holidays", "alias": "aliases", "payslip": "payslips"}


def plural(noun):
    return PLURAL.get(noun, noun + "s")


# Each verb: (name word, whether the name takes the plural, description phrasings).
VERBS = [
    ("list", True, ["List the {objs} of the {svc} workspace, newest first, one page at a time.",
                    "List {objs} in {svc}, most recent first, a page at a time."]),
    ("get", False, ["Get one {obj} from {svc} by its id, with all of its fields.",
                    "Get a single {obj} of {svc} by id."]),
    ("create", False, ["Create a new {obj} in {svc} from the given fields and return its id.",
                       "Create a {obj} in the {svc} workspace; returns the new id."]),
    ("update", False, ["Update the fields of an existing {obj} in {svc}; fields left out keep their values.",
                       "Update an existing {obj} in {svc}, changing only the fields given."]),
    ("delete", False, ["Delete a {obj} from {svc} permanently.",
                       "Delete one {obj} of {svc}; this cannot be undone."]),
    ("search", True, ["Search {svc} {objs} by a free-text query matching their name or notes.",
                      "Search the {objs} of {svc} for a text query."]),
    ("export", True, ["Export all {objs} of the {svc} workspace as a CSV file.",
                      "Export the {svc} {objs} to a CSV download."]),
    ("archive", False, ["Archive a {obj} in {svc} so it no longer shows in default views.",
                        "Archive one {obj} of {svc}; archived items can be restored later."]),
    ("share", False, ["Share a {obj} from {svc} with another person by email.",
                      "Share one {svc} {obj} with a colleague, who gets an email link."]),
    ("count", True, ["Count the {objs} in {svc} that match a filter.",
                     "Count {svc} {objs}, optionally filtered by status."]),
]

# Planted twins. Each: kind, service, verb of the template tool it duplicates, object, and the
# twin's name and description ({svc} is filled in).
PLANTED = [
    ("paraphrase", "billing", "get", "invoice", "billing_fetch_invoice",
     "Fetch a single invoice by its id from {svc} and return every field of it."),
    ("paraphrase", "crm", "list", "contact", "crm_show_contacts",
     "Show every contact stored in the {svc} workspace, newest first, page by page."),
    ("paraphrase", "analytics", "get", "dashboard", "analytics_read_dashboard",
     "Read one dashboard of {svc}, looked up by id, including all its fields."),
    ("paraphrase", "hr", "update", "employee", "hr_modify_employee",
     "Modify an employee record in {svc}: only the fields you pass are changed."),
    ("paraphrase", "tracker", "create", "issue", "tracker_open_issue",
     "Open a new issue in the {svc} workspace with the fields given and return its id."),
    ("paraphrase", "chat", "delete", "message", "chat_erase_message",
     "Erase a message from {svc} for good; it cannot be recovered."),
    ("paraphrase", "calendar", "list", "reminder", "calendar_view_reminders",
     "View the reminders set in {svc}, most recent first, one page at a time."),
    ("paraphrase", "shop", "export", "order", "shop_download_orders",
     "Download every order of the {svc} store as a CSV export file."),
    ("synonym", "storage", "delete", "file", "storage_remove_file",
     "Remove a file from {svc}; the file is gone for good."),
    ("synonym", "calendar", "create", "event", "calendar_add_event",
     "Add an event to a {svc} calendar and return the new event's id."),
    ("synonym", "crm", "search", "deal", "crm_find_deals",
     "Find deals in {svc} whose name or notes match a text query."),
    ("synonym", "tracker", "update", "milestone", "tracker_edit_milestone",
     "Edit a milestone in {svc}; fields you leave out stay as they are."),
    ("synonym", "mail", "delete", "filter", "mail_drop_filter",
     "Drop a mail filter from {svc} permanently."),
    ("synonym", "billing", "create", "coupon", "billing_new_coupon",
     "New coupon: makes a discount coupon in {svc} from the given fields and returns its id."),
    ("synonym", "hr", "search", "review", "hr_query_reviews",
     "Query the performance reviews of {svc} with free text that matches their notes."),
    ("synonym", "analytics", "delete", "chart", "analytics_destroy_chart",
     "Destroy a chart in {svc}; there is no undo."),
    ("rewording", "shop", "search", "customer", "shop_find_clients",
     "Find clients of the {svc} store whose name or notes match what you type."),
    ("rewording", "storage", "list", "folder", "storage_show_directories",
     "Show the directories of a {svc} drive, newest first, one page at a time."),
    ("rewording", "crm", "get", "company", "crm_fetch_organization",
     "Fetch one organization stored in {svc} by id, with every field."),
    ("rewording", "hr", "list", "employee", "hr_show_staff",
     "Show all staff members recorded in {svc}, newest first, page by page."),
    ("rewording", "chat", "create", "message", "chat_post_note",
     "Post a new note to a {svc} conversation and return the id it gets."),
    ("rewording", "tracker", "delete", "issue", "tracker_remove_ticket",
     "Remove a ticket from the {svc} project for good."),
    ("rewording", "shop", "get", "product", "shop_fetch_item",
     "Fetch one catalog item of the {svc} store by id, with all its fields."),
    ("rewording", "calendar", "search", "event", "calendar_find_meetings",
     "Find meetings in {svc} whose title or notes match a text query."),
]


HELDOUT_SERVICES = {
    "wiki": ["page", "space", "attachment", "template"],
    "support": ["ticket", "macro", "agent", "article"],
    "devops": ["pipeline", "deployment", "secret", "runner"],
    "learning": ["course", "lesson", "quiz", "enrollment"],
    "fleet": ["vehicle", "driver", "trip", "inspection"],
    "inventory": ["warehouse", "shipment", "supplier", "stock"],
    "forms": ["form", "response", "question", "webhook"],
    "photos": ["album", "photo", "tag", "face"],
    "legal": ["contract", "clause", "signature", "matter"],
    "social": ["post", "follower", "mention", "campaign"],
}

HELDOUT_VERBS = [
    ("list", True, ["Returns a paginated list of {objs} in {svc}.",
                    "Lists every {obj} in {svc}; supports limit and cursor."]),
    ("get", False, ["Retrieves the {obj} with the given id from {svc}.",
                    "Looks up a {obj} in {svc} by id and returns its details."]),
    ("create", False, ["Adds a {obj} to {svc} and responds with the created record.",
                       "Creates a {obj} record in {svc}."]),
    ("update", False, ["Patches a {obj} in {svc}; send only the properties to change.",
                       "Changes properties of a {obj} in {svc}."]),
    ("delete", False, ["Removes a {obj} from {svc}. Irreversible.",
                       "Permanently deletes the {obj} identified by id in {svc}."]),
    ("search", True, ["Full-text search over {svc} {objs}.",
                      "Searches {objs} in {svc} by keyword, newest match first."]),
    ("duplicate", False, ["Makes a copy of a {obj} in {svc} under a new id.",
                          "Clones an existing {svc} {obj}."]),
    ("restore", False, ["Brings back a deleted {obj} in {svc} from the trash.",
                        "Restores a {obj} that was removed from {svc} in the last 30 days."]),
    ("subscribe", False, ["Sends you email when a {obj} in {svc} changes.",
                          "Subscribes the caller to changes of one {svc} {obj}."]),
    ("stats", True, ["Returns usage statistics for {objs} in {svc}.",
                     "Aggregated numbers about {svc} {objs}: totals per day and per owner."]),
]

HELDOUT_PLANTED = [
    ("paraphrase", "wiki", "get", "page", "wiki_read_page",
     "Reads one {svc} page identified by its id and returns the page details."),
    ("paraphrase", "support", "delete", "macro", "support_erase_macro",
     "Erases a macro from {svc}; this cannot be reversed."),
    ("paraphrase", "devops", "list", "pipeline", "devops_browse_pipelines",
     "Browse the pipelines defined in {svc}, page by page with a cursor."),
    ("paraphrase", "learning", "update", "course", "learning_edit_course",
     "Edits a course in {svc}: pass only the properties that should change."),
    ("paraphrase", "fleet", "search", "vehicle", "fleet_find_vehicles",
     "Finds vehicles in {svc} matching keywords, most recent first."),
    ("synonym", "inventory", "create", "shipment", "inventory_add_shipment",
     "Adds a new shipment record to {svc} and returns it."),
    ("synonym", "forms", "delete", "response", "forms_remove_response",
     "Removes one form response from {svc} for good."),
    ("synonym", "photos", "get", "album", "photos_fetch_album",
     "Fetches the album with the given id from {svc}."),
    ("synonym", "legal", "list", "contract", "legal_show_contracts",
     "Shows the contracts stored in {svc}, a page at a time."),
    ("synonym", "social", "create", "campaign", "social_new_campaign",
     "New campaign: creates a marketing campaign record in {svc}."),
    ("rewording", "support", "get", "ticket", "support_fetch_issue",
     "Fetches one support issue from {svc} by id, with its details."),
    ("rewording", "wiki", "search", "page", "wiki_find_documents",
     "Finds documents in {svc} by keyword, best match first."),
    ("rewording", "devops", "delete", "deployment", "devops_remove_release",
     "Removes a release from {svc} permanently."),
    ("rewording", "inventory", "list", "supplier", "inventory_show_vendors",
     "Shows every vendor recorded in {svc}, paginated."),
    ("rewording", "fleet", "create", "driver", "fleet_add_operator",
     "Adds a new operator (a driver) to {svc} and returns the record."),
]


def template_name(svc, verb, takes_plural, obj):
    return "%s_%s_%s" % (svc, verb, plural(obj) if takes_plural else obj)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default="fixtures/lookalike/synthetic-500")
    ap.add_argument("--variant", choices=["tuning", "heldout"], default="tuning")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    services, verb_list, planted = SERVICES, VERBS, PLANTED
    if args.variant == "heldout":
        services, verb_list, planted = HELDOUT_SERVICES, HELDOUT_VERBS, HELDOUT_PLANTED
    verbs = {v[0]: v for v in verb_list}
    tools = []
    for svc, objs in services.items():
        for obj in objs:
            for verb, takes_plural, phrasings in verb_list:
                desc = rng.choice(phrasings).format(svc=svc, obj=obj, objs=plural(obj))
                props = {"id": {"type": "string", "description": "Id of the %s" % obj}}
                if takes_plural:
                    props = {"page": {"type": "integer", "description": "Page number, from 1"}}
                tools.append({"name": template_name(svc, verb, takes_plural, obj),
                              "description": desc,
                              "inputSchema": {"type": "object", "properties": props}})
    by_name = {t["name"]: i for i, t in enumerate(tools)}
    planted_names = set()
    pairs = []
    for kind, svc, verb, obj, twin, desc in planted:
        original = template_name(svc, verb, verbs[verb][1], obj)
        assert original in by_name, original
        planted_names.add(original)
        tools.append({"name": twin, "description": desc.format(svc=svc),
                      "inputSchema": tools[by_name[original]]["inputSchema"]})
        pairs.append({"pair": [original, twin], "kind": kind})
    # Keep the size: drop random template tools that no planted pair uses.
    droppable = [t["name"] for t in tools[: len(by_name)] if t["name"] not in planted_names]
    drop = set(rng.sample(droppable, len(planted)))
    tools = [t for t in tools if t["name"] not in drop]
    rng.shuffle(tools)
    with open(args.out + ".json", "w") as f:
        json.dump({"tools": tools}, f, indent=1)
        f.write("\n")
    labels = {
        "source": "benches/lookalike_gen.py --seed %d --variant %s (do not edit by hand)"
        % (args.seed, args.variant),
        "lookalikes": pairs,
        "disambiguated": [],
    }
    with open(args.out + ".labels.json", "w") as f:
        json.dump(labels, f, indent=1)
        f.write("\n")
    print("%d tools, %d planted pairs -> %s.json" % (len(tools), len(pairs), args.out))


if __name__ == "__main__":
    main()
