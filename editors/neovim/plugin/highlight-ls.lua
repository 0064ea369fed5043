-- Commands of highlight-ls, and on Neovim 0.11+ one autocommand for vim.lsp.enable("highlight-ls").
-- Nothing starts until vim.lsp.enable("highlight-ls") (0.11+) or require("highlight-ls").setup{}.
if vim.g.loaded_highlight_ls or vim.fn.has("nvim-0.7") ~= 1 then
  return
end
vim.g.loaded_highlight_ls = true

local function command(name, callback, options)
  vim.api.nvim_create_user_command(name, callback, options)
end

command("HighlightLsRefresh", function()
  require("highlight-ls").refresh(0)
end, { desc = "Ask highlight-ls for this buffer's decorations again" })

command("HighlightLsClear", function()
  require("highlight-ls").clear(0)
end, { desc = "Remove highlight-ls decorations from this buffer until the next update" })

-- Without a bang: the current buffer; with one: every buffer.
local function scope(args)
  if args.bang then
    return nil
  end
  return 0
end

command("HighlightLsEnable", function(args)
  require("highlight-ls").enable(scope(args))
end, { bang = true, desc = "Turn highlight-ls on for this buffer (! everywhere)" })

command("HighlightLsDisable", function(args)
  require("highlight-ls").disable(scope(args))
end, { bang = true, desc = "Turn highlight-ls off for this buffer (! everywhere)" })

command("HighlightLsToggle", function(args)
  require("highlight-ls").toggle(scope(args))
end, { bang = true, desc = "Toggle highlight-ls for this buffer (! everywhere)" })

-- Finding matches: the quickfix list for the workspace, the location list for the buffer.
-- Both take rule names to keep; `]h`/`[h` are suggested in the README, not mapped here.
command("HighlightLsQuickfix", function(args)
  require("highlight-ls").quickfix(args.fargs)
end, { nargs = "*", desc = "Fill the quickfix list with the workspace's listed matches [of these rules]" })

command("HighlightLsLocList", function(args)
  require("highlight-ls").loclist(args.fargs)
end, { nargs = "*", desc = "Fill the location list with this buffer's matches [of these rules]" })

-- :help highlight-ls without writing into the plugin's folder. A plugin manager writes
-- doc/tags there; a clone linked into a pack folder has none, and `:helptags ALL` would leave an
-- untracked file in the clone. So the help file is copied to stdpath("data")/highlight-ls/doc
-- (again whenever it changes) and tagged there, and that folder joins the runtimepath.
local function help_tags()
  local plugin_root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h")
  local source = plugin_root .. "/doc/highlight-ls.txt"
  if vim.loop.fs_stat(plugin_root .. "/doc/tags") or not vim.loop.fs_stat(source) then
    return
  end
  local function read(path)
    local file = io.open(path, "rb")
    if not file then
      return nil
    end
    local text = file:read("*a")
    file:close()
    return text
  end
  local root = vim.fn.stdpath("data") .. "/highlight-ls"
  local doc = root .. "/doc"
  local text = read(source)
  if text and (read(doc .. "/highlight-ls.txt") ~= text or not vim.loop.fs_stat(doc .. "/tags")) then
    vim.fn.mkdir(doc, "p")
    local file = io.open(doc .. "/highlight-ls.txt", "wb")
    if not file then
      return
    end
    file:write(text)
    file:close()
    vim.cmd("silent! helptags " .. vim.fn.fnameescape(doc))
  end
  if not vim.tbl_contains(vim.opt.runtimepath:get(), root) then
    vim.opt.runtimepath:append(root)
  end
end
pcall(help_tags)

-- 0.11+: vim.lsp.enable attaches on FileType only and is silent when the binary is missing.
-- This reports a missing binary and attaches buffers without a filetype; it loads the plugin's
-- module only once vim.lsp.enable("highlight-ls") has been called.
if vim.fn.has("nvim-0.11") == 1 and vim.lsp.enable then
  local function enabled()
    if package.loaded["highlight-ls"] then
      return true
    end
    if vim.lsp.is_enabled then
      return vim.lsp.is_enabled("highlight-ls")
    end
    return type(vim.lsp._enabled_configs) == "table" and vim.lsp._enabled_configs["highlight-ls"] ~= nil
  end
  local group = vim.api.nvim_create_augroup("highlight-ls.files", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    callback = function(args)
      if enabled() then
        require("highlight-ls").on_buffer_read(args.buf)
      end
    end,
  })
end
