# English background and recent_focus.
from _dsl import case, C, U, A

B = "background"
F = "recent_focus"

# --- background -------------------------------------------------------------

case("en-bg-qa-micro", [B], convs=[
    C(2, "09:30", [
        U("I work in QA, mostly on microbiological testing."),
        A("Good to know. What can I help you with today?"),
        U("What's the usual incubation for Enterobacteriaceae on VRBG?"),
        A("37 °C for 24 ± 2 h (ISO 21528-2)."),
    ]),
],
    slips=[(B, "global", "work in QA")],
    mems=[(B, "global", ["QA", "quality", "micro", "质量", "微生物"])],
)

case("en-bg-lead-dairy-rnd", [B], convs=[
    C(4, "08:10", [
        U("Quick intro since we haven't talked before: I lead the dairy R&D team at the Tianjin site."),
        A("Nice to meet you. How can I help?"),
        U("I'll come back with questions later today."),
    ]),
],
    slips=[(B, "global", "dairy R&D")],
    mems=[(B, "global", ["dairy R&D", "R&D", "dairy", "研发", "乳品"])],
)

case("en-bg-plant-based-technologist", [B], convs=[
    C(3, "13:45", [
        U("I'm a food technologist on the plant-based beverages team. What's a sensible starting dose of gellan for an almond drink?"),
        A("High-acyl gellan at 0.02-0.05% is a typical starting point for suspending particles."),
    ]),
],
    slips=[(B, "global", "technologist")],
    mems=[(B, "global", ["plant-based", "plant based", "beverage", "植物基", "technologist"])],
)

case("en-bg-regulatory-export", [B], convs=[
    C(5, "10:05", [
        U("My job is regulatory affairs for export markets, mostly Southeast Asia."),
        A("Understood."),
        U("So: does Malaysia require a halal logo on UHT milk?"),
        A("It isn't mandatory by law, but retailers commonly require JAKIM certification..."),
    ]),
],
    slips=[(B, "global", "regulatory")],
    mems=[(B, "global", ["regulatory", "export", "法规", "出口"])],
)

case("en-bg-chem-lab-analyst", [B], convs=[
    C(1, "14:15", [
        U("I'm one of the analysts in the chemistry lab - fat, protein, moisture, that kind of thing."),
        A("Thanks for the context. Anything specific today?"),
        U("Not yet, just setting things up."),
    ]),
],
    slips=[(B, "global", "chemistry")],
    mems=[(B, "global", ["chemistry", "analyst", "lab", "化验", "理化"])],
)

case("en-bg-sensory-lead", [B], convs=[
    C(6, "11:40", [
        U("How many panellists do I need for a duo-trio test?"),
        A("ISO 10399 suggests at least 24 for difference testing at alpha 0.05..."),
        U("OK. I'm the sensory lead here and I run our trained panel twice a week, so I can probably do replicates."),
        A("Replicates can work, but note they're not independent..."),
    ]),
],
    slips=[(B, "global", "sensory lead")],
    mems=[(B, "global", ["sensory", "panel", "感官"])],
)

case("en-bg-uht-process-engineer", [B], convs=[
    C(2, "07:55", [
        U("I'm a process engineer on the UHT line."),
        A("Got it."),
        U("What holding time would you expect at 140 °C for a direct steam injection system?"),
        A("Typically 4-6 seconds..."),
    ]),
],
    slips=[(B, "global", "process")],
    mems=[(B, "global", ["UHT", "process engineer", "工艺"])],
)

case("en-bg-cheese-group-joined", [B], convs=[
    C(3, "09:00", [
        U("I joined from a confectionery company last month and I'm now in the cheese development group, so bear with me on the dairy basics."),
        A("Welcome! Happy to help with the basics."),
        U("What does 'cheddaring' actually do?"),
        A("Cheddaring is stacking and turning slabs of curd so they drain, acidify and fuse..."),
    ]),
],
    slips=[(B, "global", "cheese")],
    mems=[(B, "global", ["cheese", "奶酪"])],
)

case("en-bg-supplier-quality", [B], convs=[
    C(4, "12:25", [
        U("I handle supplier quality for dairy ingredients. Which documents should I ask a new SMP supplier for?"),
        A("CoA template, spec sheet, allergen statement, GFSI certificate, HACCP summary, ..."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(B, "global", "supplier")],
    mems=[(B, "global", ["supplier quality", "supplier", "供应商"])],
)

case("en-bg-packaging-engineer", [B], convs=[
    C(5, "15:10", [
        U("Packaging engineer here - I mostly deal with cups, lids and film."),
        A("Great. What do you need?"),
        U("What's a normal seal strength target for a PP cup with a peelable foil lid?"),
        A("Often 8-15 N/15 mm for peelable seals..."),
    ]),
],
    slips=[(B, "global", "Packaging")],
    mems=[(B, "global", ["packaging", "包材", "包装"])],
)

case("en-bg-haccp-in-question", [B], convs=[
    C(1, "10:35", [
        U("As the person who writes the HACCP plans for the yoghurt plant, what should I look at for a new fruit prep supplier?"),
        A("Focus on the fruit prep's own CCPs (thermal process), micro specs for yeasts and moulds, foreign body controls..."),
    ]),
],
    slips=[(B, "global", "HACCP")],
    mems=[(B, "global", ["HACCP"])],
)

case("en-bg-microbiologist-by-training", [B], convs=[
    C(6, "08:00", [
        U("I'm a microbiologist by training."),
        A("Noted."),
        U("Which selective agar would you pick for Bifidobacterium counts in a mixed culture yoghurt?"),
        A("TOS-propionate agar with MUP supplement (ISO 29981) is the usual choice."),
    ]),
],
    slips=[(B, "global", "microbiolog")],
    mems=[(B, "global", ["microbiolog", "微生物"])],
)

case("en-bg-nutrition-team", [B], convs=[
    C(3, "14:50", [
        U("I'm in the nutrition team; I calculate nutrient panels for new launches."),
        A("Understood."),
        U("Should I use 4 or 2 kcal/g for polydextrose?"),
        A("Polydextrose is typically 1 kcal/g under EU rules..."),
    ]),
],
    slips=[(B, "global", "nutrition")],
    mems=[(B, "global", ["nutrition", "营养"])],
)

case("en-bg-lab-manager-ningbo", [B], convs=[
    C(2, "12:00", [
        U("I manage the quality lab at our Ningbo plant."),
        A("Thanks. What would you like to look at?"),
        U("We're thinking about ISO 17025 accreditation. How long does it usually take?"),
        A("Typically 9-18 months from gap analysis to accreditation..."),
    ]),
],
    slips=[(B, "global", "quality lab")],
    mems=[(B, "global", ["Ningbo", "宁波", "quality lab", "lab"])],
)

case("en-bg-pilot-plant-infant", [B], convs=[
    C(4, "09:20", [
        U("I do pilot-plant trials for the infant formula group."),
        A("OK."),
        U("What inlet temperature is typical on a small spray dryer for IF base powder?"),
        A("Roughly 160-190 °C inlet, 75-90 °C outlet..."),
    ]),
],
    slips=[(B, "global", "pilot-plant")],
    mems=[(B, "global", ["pilot", "infant", "中试", "婴"])],
)

case("en-bg-data-analyst", [B], convs=[
    C(5, "16:05", [
        U("I'm a data analyst supporting the R&D teams, so most of my questions will be about stats on lab data."),
        A("Got it."),
    ]),
],
    slips=[(B, "global", "data analyst")],
    mems=[(B, "global", ["data analyst", "analyst", "数据", "data"])],
)

case("en-bg-culture-specialist", [B], convs=[
    C(1, "11:30", [
        U("Starter cultures and probiotics are my area - I'm the culture specialist for the group."),
        A("Great, noted."),
        U("Is it normal for a DVS culture to take 30 minutes longer to reach pH 4.6 in winter milk?"),
        A("Yes, seasonal variation in milk composition and inhibitors can slow acidification..."),
    ]),
],
    slips=[(B, "global", "specialist")],
    mems=[(B, "global", ["culture", "starter", "probiotic", "菌种"])],
)

# --- recent_focus ---------------------------------------------------------------

case("en-rf-reduced-sugar-yoghurt", [F], convs=[
    C(3, "08:45", [
        U("I'm working on a reduced-sugar yoghurt reformulation right now."),
        A("What sugar reduction target are you aiming for?"),
        U("30%, without losing the mouthfeel."),
        A("Consider raising protein, using lactase to release sweetness from lactose..."),
    ]),
],
    slips=[(F, "global", "sugar")],
    mems=[(F, "global", ["reduced-sugar", "reduced sugar", "sugar", "低糖", "减糖"])],
)

case("en-rf-project-oat-sediment", [F, "project"], convs=[
    C(2, "10:15", [
        U("At the moment I'm mostly on the oat-drink sedimentation problem."),
        A("Is it protein sediment or insoluble fibre?"),
        U("Looks like protein, after retort."),
    ], scopes=["project:oat-drink"]),
],
    slips=[(F, "project:oat-drink", "sediment")],
    mems=[(F, "project:oat-drink", ["sediment", "沉淀"])],
)

case("en-rf-atp-validation", [F], convs=[
    C(5, "13:05", [
        U("These days I'm validating a rapid ATP swab method to replace some of our plate counts on food-contact surfaces."),
        A("You'll want a correlation study against your current swab counts and a clear RLU pass/fail limit."),
    ]),
],
    slips=[(F, "global", "ATP")],
    mems=[(F, "global", ["ATP"])],
)

case("en-rf-fssc-recert", [F], convs=[
    C(4, "07:40", [
        U("Currently preparing for our FSSC 22000 recertification audit."),
        A("Want a checklist of the version 6 additional requirements?"),
        U("Maybe later."),
    ]),
],
    slips=[(F, "global", "FSSC")],
    mems=[(F, "global", ["FSSC", "audit", "审核"])],
)

case("en-rf-whey-bar", [F], convs=[
    C(1, "12:50", [
        U("I've been busy with a new whey protein bar - the bars go hard after two weeks."),
        A("Hardening usually comes from protein aggregation and moisture migration..."),
    ]),
],
    slips=[(F, "global", "protein bar")],
    mems=[(F, "global", ["bar", "whey", "蛋白棒"])],
)

case("en-rf-pectin-suppliers", [F], convs=[
    C(6, "09:55", [
        U("Right now I'm comparing three pectin suppliers for the drinking yoghurt."),
        A("What are you comparing them on - stability, viscosity, price?"),
        U("Mainly sedimentation after 21 days."),
    ]),
],
    slips=[(F, "global", "pectin")],
    mems=[(F, "global", ["pectin", "果胶"])],
)

case("en-rf-project-kefir-shelf", [F, "project"], convs=[
    C(3, "15:25", [
        U("I'm running the kefir shelf-life study for this project; we're at day 28."),
        A("Which parameters are you tracking?"),
        U("pH, yeast counts, CO2 and sensory."),
    ], scopes=["project:kefir"]),
],
    slips=[(F, "project:kefir", "shelf-life")],
    mems=[(F, "project:kefir", ["shelf-life", "shelf life", "货架期", "保质期"])],
)

case("en-rf-annual-stability-report", [F], convs=[
    C(2, "11:20", [
        U("I'm putting together the annual stability report and need a neat way to show 40 products on one page."),
        A("A heat map of parameter drift per product and timepoint works well..."),
    ]),
],
    slips=[(F, "global", "stability")],
    mems=[(F, "global", ["stability", "annual", "稳定性"])],
)

case("en-rf-bitterness-high-protein", [F], convs=[
    C(4, "14:00", [
        U("Lately I've been chasing a bitterness issue in our high-protein milk."),
        A("Is it from the protein source, or does it develop during storage?"),
        U("Develops over storage, by week 6."),
        A("That points to proteolysis - residual plasmin or heat-stable bacterial proteases."),
    ]),
],
    slips=[(F, "global", "bitterness")],
    mems=[(F, "global", ["bitter", "苦"])],
)

case("en-rf-vitd-lcms", [F], convs=[
    C(5, "08:25", [
        U("I'm currently setting up a vitamin D method on the new LC-MS."),
        A("Will you derivatise with PTAD or go without?"),
        U("PTAD, probably."),
    ]),
],
    slips=[(F, "global", "vitamin D")],
    mems=[(F, "global", ["vitamin D", "维生素D", "LC-MS"])],
)

case("en-rf-reduced-fat-cream-cheese", [F], convs=[
    C(1, "10:00", [
        U("Working on the reduced-fat cream cheese at the moment, trying to keep the texture spreadable."),
        A("Whey protein microparticulates can help replace some of the fat's creaminess..."),
    ]),
],
    slips=[(F, "global", "cream cheese")],
    mems=[(F, "global", ["cream cheese", "奶油奶酪"])],
)

case("en-rf-malaysia-labels", [F], convs=[
    C(3, "12:40", [
        U("I'm doing the label review for our first Malaysia export run."),
        A("Key points: Malay language, halal statement if claimed, nutrition panel format..."),
    ]),
],
    slips=[(F, "global", "Malaysia")],
    mems=[(F, "global", ["Malaysia", "马来西亚", "label"])],
)

case("en-rf-project-vegan-icecream", [F, "project"], convs=[
    C(2, "09:05", [
        U("I'm on the vegan ice cream base trials now - coconut and faba protein."),
        A("Faba can be beany; deflavoured isolates help."),
    ], scopes=["project:ice-cream"]),
],
    slips=[(F, "project:ice-cream", "vegan")],
    mems=[(F, "project:ice-cream", ["vegan", "plant", "base", "植物基"])],
)

case("en-rf-plm-migration", [F], convs=[
    C(6, "13:30", [
        U("My main task right now is migrating our recipe data into the new PLM system."),
        A("That's a big job. Do you have a field mapping from the old system?"),
        U("Half of one."),
    ]),
],
    slips=[(F, "global", "PLM")],
    mems=[(F, "global", ["PLM"])],
)

case("en-rf-hpp-juice", [F], convs=[
    C(4, "15:45", [
        U("I'm evaluating high-pressure processing for a cold-pressed juice line."),
        A("HPP at 600 MPa for 3 minutes is a common starting point for pathogen reduction..."),
    ]),
],
    slips=[(F, "global", "pressure")],
    mems=[(F, "global", ["HPP", "high-pressure", "high pressure", "高压"])],
)

case("en-rf-mozzarella-mould-with-bg", [F, B], convs=[
    C(2, "08:35", [
        U("I'm in the cheese team, and at the moment I'm trying to fix mould growth on our shredded mozzarella."),
        A("Check the anti-caking agent, natamycin use where permitted, and the MAP gas mix."),
    ]),
],
    slips=[(B, "global", "cheese team"), (F, "global", "mould growth")],
    mems=[(B, "global", ["cheese", "奶酪"]), (F, "global", ["mould", "mold", "霉"])],
)
