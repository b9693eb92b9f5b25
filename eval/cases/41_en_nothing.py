# English conversations that must teach dreamd nothing.
from _dsl import case, C, U, A, T, S, E

# --- one-off requests ---------------------------------------------------------

case("en-oneoff-numbers-no-table", ["one_off"], convs=[
    C(2, "10:10", [
        U("Compare fat and protein for the three skyr trials."),
        A("| Trial | Fat | Protein |\n| 1 | 0.2 | 10.8 |..."),
        U("This time, just give me the numbers without a table - I'm reading this on my phone."),
        A("Trial 1: fat 0.2, protein 10.8; trial 2: ..."),
    ], scopes=["domain:recipe"]),
])

case("en-oneoff-skip-references", ["one_off"], convs=[
    C(4, "13:25", [
        U("Just this once, skip the references - I only need the answer. Max nitrite in processed cheese?"),
        A("Nitrites aren't permitted in processed cheese in most markets."),
    ]),
])

case("en-oneoff-any-order-for-now", ["one_off"], convs=[
    C(1, "09:35", [
        U("List the open CAPAs from the October audit."),
        A("Sorted by severity: ..."),
        U("For now, list them in any order, I'll sort them later myself."),
        A("1. CAPA-1031 ... 2. CAPA-1027 ..."),
    ], scopes=["domain:report"]),
])

case("en-oneoff-german-for-supplier", ["one_off"], convs=[
    C(3, "08:00", [
        U("Can you give me this spec summary in German? It's for the Hamburg supplier."),
        A("Spezifikation: Fett ≥ 26 %, Protein ≥ 24 % ..."),
    ], scopes=["domain:raw_material"]),
])

case("en-oneoff-rush-two-lines", ["one_off"], convs=[
    C(5, "15:50", [
        U("I'm in a rush today, keep it to two lines: why is my set yoghurt grainy?"),
        A("Likely too-fast acidification or high whey protein denaturation. Check incubation temperature and heat treatment."),
    ]),
])

case("en-oneoff-raw-data-first-for-manager", ["one_off", "explicit"],
    explicit=[E("presentation", "domain:report", "Summaries: conclusion first, then the data", 18)],
    convs=[
        C(2, "11:40", [
            U("This time put the raw data first, my manager wants to see it before any conclusion."),
            A("Raw data: ... Conclusion: ..."),
        ], scopes=["domain:report"]),
    ],
)

case("en-oneoff-round-whole-numbers", ["one_off"], convs=[
    C(6, "12:20", [
        U("For this report only, round everything to whole numbers - it's going to the sales team."),
        A("Protein 4 g, fat 3 g, sugar 9 g per 100 g."),
    ], scopes=["domain:report"]),
])

case("en-oneoff-expand-point-two", ["one_off"], convs=[
    C(3, "14:05", [
        U("Why does UHT milk gel during storage?"),
        A("1. Plasmin activity 2. Heat-stable bacterial proteases 3. Physicochemical changes"),
        U("Expand on point two."),
        A("Psychrotrophs such as Pseudomonas produce proteases in raw milk that survive UHT..."),
    ]),
])

case("en-oneoff-include-discontinued", ["one_off"], convs=[
    C(4, "09:20", [
        U("This time include discontinued suppliers too, going back five years."),
        A("Including discontinued ones, 11 suppliers delivered gelatin since 2021..."),
    ], scopes=["domain:raw_material"]),
])

case("en-oneoff-excel-paste", ["one_off"], convs=[
    C(1, "16:30", [
        U("Make that a table I can paste straight into Excel."),
        A("Batch\tpH\tTA\n2611-01\t4.52\t78\n..."),
    ], scopes=["domain:report"]),
])

case("en-oneoff-slide-version", ["one_off"], convs=[
    C(2, "10:50", [
        U("Give me the short version of the pilot summary for a slide."),
        A("- Pilot ran 3 batches\n- Viscosity on target\n- Sedimentation fixed"),
    ]),
])

case("en-oneoff-formal-email", ["one_off"], convs=[
    C(5, "08:45", [
        U("Draft a reply to the auditor. Just for this email, make it formal."),
        A("Dear Ms. Tan, Thank you for your observations..."),
    ]),
])

case("en-oneoff-redo-metric", ["one_off"], convs=[
    C(3, "12:55", [
        U("How hot does the CIP caustic need to be?"),
        A("Around 167-176 °F."),
        U("Redo that in Celsius for me, I need it for the SOP."),
        A("75-80 °C."),
    ]),
])

case("en-oneoff-results-only-auditor", ["one_off"], convs=[
    C(6, "11:15", [
        U("Leave out the method details in this one, the auditor only wants results."),
        A("Results: Salmonella not detected in 25 g (n=5)..."),
    ], scopes=["domain:report"]),
])

# --- questions and small talk -------------------------------------------------

case("en-q-tpc-temperature", ["question"], convs=[
    C(4, "09:05", [
        U("What's the incubation temperature for TPC in ISO 4833-1?"),
        A("30 °C for 72 h."),
        U("Thanks."),
    ], scopes=["domain:standard"]),
])

case("en-q-greek-protein", ["question"], convs=[
    C(2, "13:40", [
        U("How much protein does Greek yoghurt usually have?"),
        A("Typically 8-10 g/100 g for strained Greek yoghurt."),
    ]),
])

case("en-smalltalk-weekend", ["smalltalk"], convs=[
    C(1, "15:30", [
        U("Happy Friday! Any plans for the weekend?"),
        A("No plans for me, but I hope you have a good one!"),
        U("Haha thanks, hiking if it doesn't rain."),
    ]),
])

case("en-smalltalk-thanks", ["smalltalk"], convs=[
    C(3, "10:35", [
        U("Thanks, that was really helpful yesterday."),
        A("Glad it helped!"),
    ]),
])

case("en-q-remember-last-week", ["question"], convs=[
    C(5, "14:20", [
        U("Do you remember what I asked about powder caking last week?"),
        A("I can't see that conversation. Could you summarise the issue?"),
        U("Never mind, I'll dig it out."),
    ]),
])

case("en-q-esl-vs-pasteurised", ["question"], convs=[
    C(6, "08:30", [
        U("What's the difference between pasteurised and ESL milk?"),
        A("ESL milk gets a higher heat treatment or microfiltration plus cleaner filling, giving 20-45 days chilled shelf life..."),
    ]),
])

case("en-q-gellan-vs-pectin", ["question"], convs=[
    C(2, "12:10", [
        U("Is gellan better than pectin for acidified milk drinks?"),
        A("Not really comparable: HM pectin protects casein at low pH; gellan mainly suspends particles..."),
        U("Makes sense."),
    ]),
])

case("en-smalltalk-coffee-machine", ["smalltalk"], convs=[
    C(4, "07:50", [
        U("Ugh, the coffee machine on our floor is broken again."),
        A("That's rough. Tea day, maybe?"),
    ]),
])

case("en-q-convert-acidity", ["question"], convs=[
    C(1, "11:00", [
        U("Can you convert 45 °T to percent lactic acid?"),
        A("45 °T × 0.009 = 0.405% lactic acid."),
    ]),
])

case("en-q-musing-allulose", ["question"], convs=[
    C(3, "16:15", [
        U("I wonder if we should try allulose instead of erythritol. Thoughts?"),
        A("Allulose browns during heating and costs more, but tastes closer to sucrose..."),
        U("Hmm, I'll think about it."),
    ]),
])

case("en-q-post-acidification", ["question"], convs=[
    C(5, "10:25", [
        U("What causes post-acidification in yoghurt?"),
        A("Mostly L. bulgaricus continuing to ferment lactose during cold storage..."),
    ]),
])

case("en-q-smp-storage", ["question"], convs=[
    C(2, "09:50", [
        U("How long can skim milk powder be stored?"),
        A("Typically 18-24 months below 25 °C and 65% RH in sealed bags."),
    ], scopes=["domain:raw_material"]),
])

case("en-smalltalk-morning", ["smalltalk"], convs=[
    C(6, "07:30", [
        U("Good morning! Busy day ahead, three audits this week."),
        A("Good morning! Good luck with the audits."),
    ]),
])

case("en-q-listeria-pcr", ["question"], convs=[
    C(4, "13:00", [
        U("Which is faster for Listeria screening, PCR or culture?"),
        A("PCR: results in about 24-30 h including enrichment; culture: 4-5 days to confirm."),
    ], scopes=["domain:standard"]),
])

# --- only the assistant, a tool or the system said it -------------------------

case("en-asst-offer-no-answer", ["assistant_only"], convs=[
    C(3, "11:25", [
        U("Compare sugar in the three drinking yoghurts."),
        A("| DY-31 | 7.0% |\n| DY-34 | 5.5% |\n| DY-40 | 4.8% |\nShall I always use tables for comparisons from now on?"),
        U("We'll see."),
    ], scopes=["domain:recipe"]),
])

case("en-asst-system-profile", ["assistant_only"], convs=[
    C(1, "14:40", [
        S("User profile (from HR directory): Packaging Engineering, Suzhou plant."),
        U("What's the oxygen transmission rate of standard PET?"),
        A("As a packaging engineer in Suzhou you'll know PET is roughly 1-2 cc·mil/100 in²·day..."),
    ]),
])

case("en-asst-tool-supplier-contact", ["assistant_only", "never_store"], convs=[
    C(5, "09:15", [
        U("Who's our contact at the gelatin supplier?"),
        T("{\"supplier\": \"Nordic Gelatin AB\", \"contact\": \"Erik Lund\", \"phone\": \"+46 31 712 4580\", \"email\": \"erik.lund@nordicgelatin.se\"}"),
        A("Erik Lund, +46 31 712 4580, erik.lund@nordicgelatin.se."),
        U("Thanks, I'll reach out."),
    ], scopes=["domain:raw_material"]),
],
    absent=["712 4580", "317124580", "erik.lund@nordicgelatin.se"],
)

case("en-asst-infers-role", ["assistant_only"], convs=[
    C(2, "16:20", [
        U("What's the optimum temperature for lactase?"),
        A("Neutral lactase works best around 35-40 °C. Since you always ask about enzymes, I'll assume you're the enzyme specialist and focus on enzymes from now on."),
        U("Just the pH as well, please."),
        A("pH 6.5-7.0."),
    ]),
])
